import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { validation } from '../errors.js';
import { ordinal } from '../kube/names.js';
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

/** What one list needs: its scope (caller's view, kind, namespace, filter), the version of its content, and how to build it. */
export interface ListSource {
  /** Who asks and for what: answers are shared between requests with the same scope. */
  scope: string;
  /** The content's version (cache revision, age bucket): a new version replaces the kept snapshot of its scope. */
  version: string;
  /**
   * The part of the version that must match to answer from a kept snapshot while the new version is built
   * (the cache revision: only the clock moved, so just ages are a little older). Without it, every new version waits.
   */
  content?: string;
  build: () => Promise<Item[]>;
}

/** One kept snapshot (per scope and sort) and the answers built from it (per page). */
interface Kept {
  version: string;
  content: string | undefined;
  /** False once dropped (a request may still be answering from it). */
  live: boolean;
  sorted: Sorted;
  answers: Map<string, Encoded>;
  bytes: number;
}

/** A snapshot being built. */
interface Building {
  version: string;
  content: string | undefined;
  sorted: Promise<Sorted>;
}

/** Rough heap cost of one list item kept in a snapshot (its strings are mostly shared with the cache's rows). */
const bytesPerItem = 160;
/** Page answers kept per snapshot (a UI paging through a list asks for a handful). */
const answersPerSnapshot = 16;

/**
 * Serves lists from the watch-fed caches cheaply under load: the visible, sorted snapshot is kept per
 * (scope, sort) at its latest version only (cache revision and 5-second age bucket — ages move with the clock),
 * a page is a slice of it, each answer is serialized and compressed (br or gzip, when accepted) once and reused,
 * and `If-None-Match` with the answer's ETag gets 304. Snapshots and answers together stay under `maxBytes`:
 * the least recently used scope goes first.
 */
export class ListPages {
  private readonly kept = new Map<string, Kept>();
  private readonly building = new Map<string, Building>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /** Answers with the page `query` asks for of the list `source` (built when its version is not kept yet). */
  async send(context: AppContext, source: ListSource, query: PageQuery): Promise<void> {
    const key = `${source.scope}\u0000${query.sortBy ?? ''}`;
    const kept = await this.snapshot(key, source, query.sortBy);
    const answerKey = `${query.limit ?? ''}\u0000${query.continue ?? ''}`;
    let answer = kept.answers.get(answerKey);
    if (!answer) {
      answer = encode(page(kept.sorted, query));
      if (kept.answers.size >= answersPerSnapshot) this.forgetOldestAnswer(kept);
      kept.answers.set(answerKey, answer);
      this.grow(kept, answer.json.length);
    }
    this.grow(kept, reply(context, answer));
    this.evict(key);
  }

  /** Bytes held by kept snapshots and answers (an estimate for the snapshots' items). */
  get size(): number {
    return this.bytes;
  }

  private async snapshot(key: string, source: ListSource, sortBy: string | undefined): Promise<Kept> {
    const known = this.kept.get(key);
    if (known?.version === source.version) return this.touch(key, known);
    if (known && source.content !== undefined && known.content === source.content) {
      // Only the clock moved: answer from the kept snapshot while the next one is built once in the background.
      this.build(key, source, sortBy).catch(() => undefined);
      return this.touch(key, known);
    }
    return this.build(key, source, sortBy);
  }

  private touch(key: string, kept: Kept): Kept {
    this.kept.delete(key);
    this.kept.set(key, kept);
    return kept;
  }

  /**
   * At most one build per (scope, sort) runs at a time. A request for another version waits for the build in
   * flight (it read the cache before this request came), then shares the next build: any build started after a
   * request arrived reflects at least what that request must see.
   */
  private async build(key: string, source: ListSource, sortBy: string | undefined): Promise<Kept> {
    const inFlight = this.building.get(key);
    if (inFlight && inFlight.version !== source.version) await inFlight.sorted.catch(() => undefined);
    const current = this.kept.get(key);
    if (current?.version === source.version) return current;
    const building = this.building.get(key) ?? this.startBuild(key, source, sortBy);
    const sorted = await building.sorted;
    const latest = this.kept.get(key);
    if (latest?.version === building.version) return latest;
    if (latest) this.forget(key, latest);
    const kept: Kept = { version: building.version, content: building.content, live: true, sorted, answers: new Map(), bytes: 0 };
    this.kept.set(key, kept);
    this.grow(kept, sorted.items.length * bytesPerItem);
    return kept;
  }

  private startBuild(key: string, source: ListSource, sortBy: string | undefined): Building {
    const building: Building = {
      version: source.version,
      content: source.content,
      sorted: source
        .build()
        .then((items) => sortItems(items, sortBy))
        .finally(() => {
          if (this.building.get(key) === building) this.building.delete(key);
        }),
    };
    this.building.set(key, building);
    return building;
  }

  private grow(kept: Kept, bytes: number): void {
    kept.bytes += bytes;
    if (kept.live) this.bytes += bytes;
  }

  private forget(key: string, kept: Kept): void {
    this.kept.delete(key);
    this.bytes -= kept.bytes;
    kept.live = false;
  }

  private forgetOldestAnswer(kept: Kept): void {
    const [oldestKey, oldest] = kept.answers.entries().next().value!;
    kept.answers.delete(oldestKey);
    this.grow(kept, -answerBytes(oldest));
  }

  /** Drops the least recently used snapshots (never the one just answered from) until the budget holds. */
  private evict(current: string): void {
    for (const [key, kept] of this.kept) {
      if (this.bytes <= this.maxBytes) return;
      if (key !== current) this.forget(key, kept);
    }
  }
}

function answerBytes(answer: Encoded): number {
  return answer.json.length + (answer.br?.length ?? 0) + (answer.gzip?.length ?? 0);
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

/** Each item's JSON, made once per item object: list items are shared between builds and never changed (src/kube/table.ts). */
const itemJson = new WeakMap<Item, string>();

function jsonOf(item: Item): string {
  let text = itemJson.get(item);
  if (text === undefined) {
    text = JSON.stringify(item);
    itemJson.set(item, text);
  }
  return text;
}

/** The page as JSON (what `JSON.stringify` gives, from each item's kept JSON), with its ETag. */
function encode(body: { items: Item[]; total: number; continue?: string }): Encoded {
  const more = body.continue === undefined ? '' : `,"continue":${JSON.stringify(body.continue)}`;
  const json = Buffer.from(`{"items":[${body.items.map(jsonOf).join(',')}],"total":${body.total}${more}}`);
  return { json, etag: `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
}

/** Sends the answer (304, or its bytes in the accepted encoding); returns the bytes a first compression added to it. */
function reply(context: AppContext, answer: Encoded): number {
  context.set('ETag', answer.etag);
  context.set('Vary', 'Accept-Encoding, Authorization');
  context.set('Cache-Control', 'private, no-cache');
  const tags = (context.get('If-None-Match') ?? '').split(',').map((tag) => tag.trim());
  if (tags.includes(answer.etag) || tags.includes('*')) {
    context.status = 304;
    context.body = null;
    return 0;
  }
  context.type = 'application/json';
  const encoding = answer.json.length >= 1024 ? context.acceptsEncodings('br', 'gzip', 'identity') : 'identity';
  if (encoding !== 'br' && encoding !== 'gzip') {
    context.body = answer.json;
    return 0;
  }
  const before = answerBytes(answer);
  const body = encoding === 'br' ? (answer.br ??= brotli(answer.json)) : (answer.gzip ??= gzipSync(answer.json, { level: 6 }));
  context.set('Content-Encoding', encoding);
  context.body = body;
  return answerBytes(answer) - before;
}

function brotli(json: Buffer): Buffer {
  return brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } });
}
