import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { ResourceTable, scrollOffset } from './resource-table.js';
import { columnsOf } from '../core/columns.js';
import type { Row } from '../api/types.js';

/** The display column (cells) where each field of a line starts: a field starts after a space that follows a non-space. */
function fieldStarts(line: string): number[] {
  const starts: number[] = [];
  let cells = 0;
  let previous = ' ';
  for (const character of line) {
    if (character !== ' ' && previous === ' ') starts.push(cells);
    cells += stringWidth(character);
    previous = character;
  }
  return starts;
}

const rows: Row[] = [
  { name: '웹-서버-한국어', namespace: '기본', status: 'Running', ready: '1/1', restarts: 0, age: '5m' },
  { name: 'ウェブ-日本語', namespace: 'デフォルト', status: 'Pending', ready: '0/1', restarts: 12, age: '2h' },
  { name: '网页-中文名称', namespace: '默认', status: 'Running', ready: '1/1', restarts: 3, age: '40s' },
  { name: 'plain-ascii-name', namespace: 'default', status: 'Running', ready: '1/1', restarts: 1, age: '1d' },
];
const headers: Record<string, string> = { namespace: '네임스페이스', name: '이름', status: '状態', ready: '就绪', restarts: 'RESTARTS', age: '経過' };

describe('ResourceTable', () => {
  it('aligns columns by display width with Korean, Japanese and Chinese names and headers', () => {
    const columns = columnsOf(rows, { showNamespace: true, header: (key) => headers[key] ?? key });
    const { lastFrame } = render(<ResourceTable columns={columns} rows={rows} selected={0} offset={0} height={10} width={100} />);
    const lines = (lastFrame() ?? '').split('\n');
    expect(lines).toHaveLength(5);
    const expected = fieldStarts(lines[0] ?? '');
    expect(expected).toHaveLength(6);
    for (const line of lines) expect(fieldStarts(line), line).toEqual(expected);
    expect(lines.some((line) => line.includes('웹-서버-한국어') && line.includes('기본'))).toBe(true);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(100);
  });

  it('cuts cells by display width when the terminal is narrow, never splitting a wide character', () => {
    const columns = columnsOf(rows, { showNamespace: true, header: (key) => headers[key] ?? key });
    const { lastFrame } = render(<ResourceTable columns={columns} rows={rows} selected={1} offset={0} height={10} width={60} />);
    const lines = (lastFrame() ?? '').split('\n');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    const starts = fieldStarts(lines[0] ?? '');
    for (const line of lines.slice(1)) expect(fieldStarts(line).slice(0, 2)).toEqual(starts.slice(0, 2));
  });

  it('renders only the visible rows of 10,000', () => {
    const many: Row[] = Array.from({ length: 10_000 }, (_, index) => ({ name: `pod-${String(index).padStart(5, '0')}`, status: 'Running', age: '1m' }));
    const columns = columnsOf(many, { showNamespace: false, header: (key) => key.toUpperCase() });
    const { lastFrame } = render(<ResourceTable columns={columns} rows={many} selected={5_000} offset={4_990} height={20} width={80} />);
    const lines = (lastFrame() ?? '').split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[1]).toContain('pod-04990');
    expect(lines[20]).toContain('pod-05009');
  });

  it('keeps the selection on screen while scrolling as little as possible', () => {
    expect(scrollOffset(0, 0, 10, 100)).toBe(0);
    expect(scrollOffset(10, 0, 10, 100)).toBe(1);
    expect(scrollOffset(5, 3, 10, 100)).toBe(3);
    expect(scrollOffset(2, 3, 10, 100)).toBe(2);
    expect(scrollOffset(99, 0, 10, 100)).toBe(90);
    expect(scrollOffset(3, 50, 10, 5)).toBe(0);
  });
});
