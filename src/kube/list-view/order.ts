import { validation } from '../../errors.js';
import { ordinal } from '../cache/names.js';

/** A list item as the view sorts and pages it. */
export type Item = { name: string; namespace?: string } & Record<string, unknown>;

/** How a list is paged and ordered (`limit`, `continue`, `sortBy`; `-` before the key sorts descending). */
export interface PageQuery {
  limit?: number;
  continue?: string;
  sortBy?: string;
}

/** One page of a sorted snapshot: what the answer's JSON holds. */
export interface Page {
  items: Item[];
  total: number;
  continue?: string;
}

const ageUnits: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, y: 31_536_000 };

/** Columns that hold kubectl-style ages (`5m`, `3m20s`, `2d5h`): an event's last and first sighting too. */
const ageKeys = new Set(['age', 'lastSeen', 'firstSeen']);

/** Seconds of a kubectl-style age; an unknown age (`<unknown>`, empty) sorts after every known one. */
function ageSeconds(text: string): number {
  const parts = [...text.matchAll(/(\d+)([smhdy])/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) return Number.MAX_SAFE_INTEGER;
  return parts.reduce((total, part) => total + Number(part[1]) * (ageUnits[part[2]!] ?? 1), 0);
}

/** A sortable value: ages by their length, numbers as numbers, the rest as text. */
function sortValue(item: Item, key: string): string | number {
  const value = item[key];
  if (typeof value === 'number') return value;
  const text = value === undefined || value === null ? '' : String(value);
  return ageKeys.has(key) ? ageSeconds(text) : text;
}

function compare(left: string | number, right: string | number): number {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return ordinal(String(left), String(right));
}

/** The position after which the next page starts: the last item's sort value and identity. */
type Cursor = [string | number, string, string];

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(token: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(cursor) && cursor.length === 3 && typeof cursor[1] === 'string' && typeof cursor[2] === 'string') return cursor as Cursor;
  } catch {
    // refused below
  }
  throw validation('continue: not a token this list gave out', { fields: { continue: 'not a token this list gave out' } });
}

/** A snapshot in its order, with each item's sort value. */
export interface Sorted {
  items: Item[];
  values: (string | number)[];
}

/** Sorts once per list snapshot: by `sortBy`, then namespace and name (a stable order pages can follow). */
export function sortItems(items: Item[], sortBy: string | undefined): Sorted {
  const descending = sortBy?.startsWith('-') ?? false;
  const key = sortBy?.replace(/^-/, '') || undefined;
  const keyed = items.map((item) => ({ item, value: key ? sortValue(item, key) : '' }));
  keyed.sort((left, right) => {
    const order = compare(left.value, right.value) * (descending ? -1 : 1);
    return order || ordinal(left.item.namespace ?? '', right.item.namespace ?? '') || ordinal(left.item.name, right.item.name);
  });
  return { items: keyed.map((entry) => entry.item), values: keyed.map((entry) => entry.value) };
}

/** Index of the first item after the cursor (binary search on the sorted snapshot). */
function startAfter(sorted: Sorted, cursor: Cursor, descending: boolean): number {
  let low = 0;
  let high = sorted.items.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const item = sorted.items[middle]!;
    const order =
      compare(sorted.values[middle]!, cursor[0]) * (descending ? -1 : 1) || ordinal(item.namespace ?? '', cursor[1]) || ordinal(item.name, cursor[2]);
    if (order <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The page `query` asks for: a slice of the sorted snapshot, with a `continue` cursor when more items follow. */
export function pageOf(sorted: Sorted, query: PageQuery): Page {
  const descending = query.sortBy?.startsWith('-') ?? false;
  const start = query.continue ? startAfter(sorted, decodeCursor(query.continue), descending) : 0;
  const end = query.limit ? Math.min(sorted.items.length, start + query.limit) : sorted.items.length;
  const items = sorted.items.slice(start, end);
  if (end >= sorted.items.length || items.length === 0) return { items, total: sorted.items.length };
  const last = sorted.items[end - 1]!;
  return { items, total: sorted.items.length, continue: encodeCursor([sorted.values[end - 1]!, last.namespace ?? '', last.name]) };
}
