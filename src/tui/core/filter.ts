import type { Row } from '../api/types.js';

/** A row filter typed after `/`: a substring, and/or `-l key=value,...` (a label selector the server applies). */
export interface RowFilter {
  text: string;
  labelSelector?: string;
}

/** Parses `/` input: `web`, `-l app=web`, `-l app=web,tier!=db api` (selector first, then text), `-lapp=web`. */
export function parseFilter(input: string): RowFilter {
  const trimmed = input.trim();
  const match = /^-l\s*(\S+)(?:\s+(.*))?$/.exec(trimmed);
  if (!match) return { text: trimmed };
  return { labelSelector: match[1], text: (match[2] ?? '').trim() };
}

/** Search texts by row object: a live list keeps unchanged rows as the same objects, so each is built once. */
const searchTexts = new WeakMap<Row, string>();

/** The text a row is searched in: every column value, lower-cased (kept per row object). */
function rowText(row: Row): string {
  let text = searchTexts.get(row);
  if (text === undefined) {
    text = Object.values(row)
      .filter((value) => typeof value === 'string' || typeof value === 'number')
      .join(' ')
      .toLowerCase();
    searchTexts.set(row, text);
  }
  return text;
}

/** Rows whose columns contain the text (case-insensitive); all rows for an empty text. */
export function filterRows(rows: Row[], text: string): Row[] {
  const needle = text.toLowerCase();
  if (!needle) return rows;
  return rows.filter((row) => rowText(row).includes(needle));
}
