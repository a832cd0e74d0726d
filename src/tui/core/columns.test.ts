import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { agedBy, columnWidths, padToWidth, truncateToWidth } from './columns.js';

describe('display-width cells', () => {
  it('pads and cuts by terminal cells, two per CJK character', () => {
    expect(padToWidth('이름', 6)).toBe('이름  ');
    expect(stringWidth(padToWidth('名前空間', 6))).toBe(6);
    expect(truncateToWidth('命名空间名称', 7)).toBe('命名空~');
    expect(stringWidth(truncateToWidth('웹-서버-한국어', 9))).toBeLessThanOrEqual(9);
  });

  it('shrinks other columns before NAME until the line fits', () => {
    const widths = columnWidths(
      [
        { key: 'name', header: 'NAME' },
        { key: 'status', header: 'STATUS' },
      ],
      [{ name: 'x'.repeat(70), status: 'Running' }],
      40,
    );
    expect(widths[0]! + widths[1]! + 1).toBeLessThanOrEqual(40);
    expect(widths[1]).toBe(4);
    expect(widths[0]).toBe(35);
  });

  it('counts ages on from when a row arrived', () => {
    expect(agedBy('40s', 30)).toBe('70s');
    expect(agedBy('119s', 1)).toBe('2m');
    expect(agedBy('5m', 120)).toBe('7m');
    expect(agedBy('3h', 3_600)).toBe('4h');
    expect(agedBy('47h', 3_600)).toBe('2d');
    expect(agedBy('<unknown>', 10)).toBe('<unknown>');
    expect(agedBy('5m', 0)).toBe('5m');
  });
});
