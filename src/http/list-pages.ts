import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { validation } from '../errors.js';
import type { AppContext } from './types.js';

type Item = { name: string; namespace?: string } & Record<string, unknown>;

/** How a list is paged and ordered (`limit`, `continue`, `sortBy`; `-` before the key sorts descending). */
export interface PageQuery {
  limit?: number;
  continue?: string;
  sortBy?: string;
}

const ageUnits: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, y: 31_536_000 };

/** A sortable value: ages (`5m`, `2d`) by their length, numbers as numbers, the rest as text. */
function sortValue(item: Item, key: string): string | number {
  const value = item[key];
  if (typeof value === 'number') return value;
  const text = value === undefined || value === null ? '' : String(value);
  const age = key === 'age' ? /^(\d+)([smhdy])$/.exec(text) : null;
  return age ? Number(age[1]) * (ageUnits[age[2]!] ?? 1) : text;
}

/** Ordinal order (code points, like kubectl's sort): much faster than locale-aware comparison on large lists. */
export function ordinal(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
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

interface Sorted {
  items: Item[];
  values: (string | number)[];
}

/** Sorts once per list snapshot: by `sortBy`, then namespace and name (a stable order pages can follow). */
function sortItems(items: Item[], sortBy: string | undefined): Sorted {
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

interface Encoded {
  json: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * Serves lists from the watch-fed caches cheaply under load: the visible, sorted snapshot is kept per
 * (caller's view, filter, sort, cache revision, 5-second age bucket — ages move with the clock), a page is a slice
 * of it, each answer is serialized and compressed (br or gzip, when accepted) once and reused, and
 * `If-None-Match` with the answer's ETag gets 304.
 */
export class ListPages {
  private readonly snapshots = new Map<string, Sorted>();
  private readonly answers = new Map<string, Encoded>();

  constructor(private readonly maxEntries = 64) {}

  /** Answers with the page of the snapshot `key` (built by `build` when not kept yet). */
  async send(context: AppContext, key: string, query: PageQuery, build: () => Promise<Item[]>): Promise<void> {
    const snapshotKey = `${key}\u0000${query.sortBy ?? ''}`;
    let sorted = this.snapshots.get(snapshotKey);
    if (!sorted) {
      sorted = sortItems(await build(), query.sortBy);
      remember(this.snapshots, snapshotKey, sorted, this.maxEntries);
    }
    const answerKey = `${snapshotKey}\u0000${query.limit ?? ''}\u0000${query.continue ?? ''}`;
    let answer = this.answers.get(answerKey);
    if (!answer) {
      answer = encode(page(sorted, query));
      remember(this.answers, answerKey, answer, this.maxEntries);
    }
    reply(context, answer);
  }
}

function page(sorted: Sorted, query: PageQuery): { items: Item[]; total: number; continue?: string } {
  const descending = query.sortBy?.startsWith('-') ?? false;
  const start = query.continue ? startAfter(sorted, decodeCursor(query.continue), descending) : 0;
  const end = query.limit ? Math.min(sorted.items.length, start + query.limit) : sorted.items.length;
  const items = sorted.items.slice(start, end);
  if (end >= sorted.items.length || items.length === 0) return { items, total: sorted.items.length };
  const last = sorted.items[end - 1]!;
  return { items, total: sorted.items.length, continue: encodeCursor([sorted.values[end - 1]!, last.namespace ?? '', last.name]) };
}

function encode(body: unknown): Encoded {
  const json = Buffer.from(JSON.stringify(body));
  return { json, etag: `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
}

function remember<T>(map: Map<string, T>, key: string, value: T, max: number): void {
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

function reply(context: AppContext, answer: Encoded): void {
  context.set('ETag', answer.etag);
  context.set('Vary', 'Accept-Encoding, Authorization');
  context.set('Cache-Control', 'private, no-cache');
  const tags = (context.get('If-None-Match') ?? '').split(',').map((tag) => tag.trim());
  if (tags.includes(answer.etag) || tags.includes('*')) {
    context.status = 304;
    context.body = null;
    return;
  }
  context.type = 'application/json';
  const encoding = answer.json.length >= 1024 ? context.acceptsEncodings('br', 'gzip', 'identity') : 'identity';
  if (encoding === 'br') {
    answer.br ??= brotliCompressSync(answer.json, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: answer.json.length } });
    context.set('Content-Encoding', 'br');
    context.body = answer.br;
  } else if (encoding === 'gzip') {
    answer.gzip ??= gzipSync(answer.json, { level: 6 });
    context.set('Content-Encoding', 'gzip');
    context.body = answer.gzip;
  } else context.body = answer.json;
}
