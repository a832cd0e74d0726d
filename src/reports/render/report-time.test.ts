import { describe, expect, it } from 'vitest';
import { columnWidths, wrappedCell } from './pdf-table.js';
import { reportTime } from './report-time.js';

describe('report times and PDF tables', () => {
  it('writes every spelling of a timestamp one way, and leaves other text alone', () => {
    expect(reportTime('2026-11-26T07:59:58Z')).toBe('2026-11-26 07:59:58 UTC');
    expect(reportTime('2026-11-26T07:59:58.123456Z')).toBe('2026-11-26 07:59:58 UTC');
    expect(reportTime('2026-11-26 09:59:58.123456789 +0200 CEST')).toBe('2026-11-26 07:59:58 UTC');
    expect(reportTime('2026-11-26 07:59:58.1 +0000 UTC')).toBe('2026-11-26 07:59:58 UTC');
    expect(reportTime('web-0')).toBe('web-0');
    expect(reportTime('2026-11-26')).toBe('2026-11-26');
  });

  it('sizes columns to the page and cuts words longer than their column', () => {
    const widths = columnWidths({ columns: ['Last seen', 'Count', 'Message'], rows: [['2026-11-26 07:59:58 UTC', 3, 'x'.repeat(300)]] });
    expect(widths.reduce((sum, width) => sum + width, 0)).toBeLessThanOrEqual(515 - 3 * 8);
    expect(widths[2]! > widths[1]!).toBe(true);
    const lines = wrappedCell('in pod/payments-worker-7d9f8b6c5d-x2x9k_shop(0f1e2d3c) now', 60).split('\n');
    expect(lines.join('')).toBe('in pod/payments-worker-7d9f8b6c5d-x2x9k_shop(0f1e2d3c) now'.replaceAll(' ', ''));
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(12);
    expect(lines.some((line) => line.endsWith('-'))).toBe(false);
  });
});
