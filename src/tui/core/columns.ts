import stringWidth from 'string-width';
import type { Row } from '../api/types.js';

/** The cells of one column: its key and header label. */
export interface Column {
  key: string;
  header: string;
}

const hiddenKeys = new Set(['labels', 'annotations', 'uid', 'receivedAt']);

/** The columns of a list: NAMESPACE (when listing several namespaces), NAME, the kind's own columns, AGE last. */
export function columnsOf(rows: Row[], options: { showNamespace: boolean; header: (key: string) => string }): Column[] {
  const keys: string[] = [];
  for (const row of rows.slice(0, 20)) {
    for (const [key, value] of Object.entries(row)) {
      if (keys.includes(key) || hiddenKeys.has(key) || (value !== null && typeof value === 'object')) continue;
      keys.push(key);
    }
  }
  const middle = keys.filter((key) => key !== 'name' && key !== 'namespace' && key !== 'age');
  const ordered = [...(options.showNamespace ? ['namespace'] : []), 'name', ...middle, ...(keys.includes('age') ? ['age'] : [])];
  return ordered.map((key) => ({ key, header: options.header(key) }));
}

const ageUnits: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400, y: 31_536_000 };

/** The server's short age (`40s`, `12m`, `3h`, `5d`, `2y`) advanced by the seconds since the row arrived, in the same short form. */
export function agedBy(age: string, elapsedSeconds: number): string {
  const match = /^(\d+)([smhdy])$/.exec(age);
  if (!match || elapsedSeconds < 1) return age;
  const seconds = Number(match[1]) * (ageUnits[match[2] ?? 's'] ?? 1) + Math.floor(elapsedSeconds);
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  return days < 730 ? `${days}d` : `${Math.floor(days / 365)}y`;
}

/** A cell's text: strings and numbers as they are, arrays joined, nothing for null. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(',');
  return String(value).replace(/[\r\n\t]+/g, ' ');
}

/** Cuts text to at most `width` terminal cells (CJK characters are two cells), ending with `~` when cut. */
export function truncateToWidth(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  let result = '';
  let used = 0;
  for (const character of text) {
    const cells = stringWidth(character);
    if (used + cells > width - 1) break;
    result += character;
    used += cells;
  }
  return `${result}~`;
}

/** Pads text with spaces to exactly `width` cells (after cutting it to fit). */
export function padToWidth(text: string, width: number): string {
  const cut = truncateToWidth(text, width);
  return cut + ' '.repeat(Math.max(0, width - stringWidth(cut)));
}

/**
 * Column widths by display width (string-width: CJK = 2 cells) over the header and the given rows,
 * shrunk from the widest column first until the line fits `total` cells (one space between columns).
 */
export function columnWidths(columns: Column[], rows: Row[], total: number): number[] {
  const widths = columns.map((column) => Math.max(stringWidth(column.header), ...rows.map((row) => stringWidth(cellText(row[column.key])))));
  const fits = (): boolean => widths.reduce((sum, width) => sum + width, 0) + Math.max(0, widths.length - 1) <= total;
  // The widest other column gives way first; NAME only when nothing else can.
  const shrinkable = (index: number): boolean => (widths[index] ?? 0) > 4;
  const widestOf = (indexes: number[]): number | undefined => indexes.filter(shrinkable).sort((left, right) => (widths[right] ?? 0) - (widths[left] ?? 0))[0];
  const others = columns.map((_, index) => index).filter((index) => columns[index]?.key !== 'name');
  while (!fits()) {
    const widest = widestOf(others) ?? widestOf(columns.map((_, index) => index));
    if (widest === undefined) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  return widths;
}

/** One table line: each cell padded to its column's width, one space between. */
export function formatLine(cells: string[], widths: number[]): string {
  return cells.map((cell, index) => padToWidth(cell, widths[index] ?? 0)).join(' ');
}
