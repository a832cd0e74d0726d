import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { pageOf, sortItems, type Item, type Page, type PageQuery, type Sorted } from './order.js';

/** The encodings an answer is kept in besides its JSON. */
export type Compression = 'br' | 'gzip';

/**
 * One page's answer: its JSON (what `JSON.stringify` of the page gives), a weak ETag of it, and the JSON
 * compressed once per encoding when first asked for (kept with the answer, within the snapshots' budget).
 */
export interface ListAnswer {
  readonly json: Buffer;
  readonly etag: string;
  compressed(encoding: Compression): Buffer;
}

/** An answer and its compressed forms; `grew` is told the bytes each first compression adds. */
class Encoded implements ListAnswer {
  br?: Buffer;
  gzip?: Buffer;

  constructor(
    readonly json: Buffer,
    readonly etag: string,
    private readonly grew: (bytes: number) => void,
  ) {}

  compressed(encoding: Compression): Buffer {
    const kept = this[encoding];
    if (kept) return kept;
    const body = encoding === 'br' ? brotli(this.json) : gzipSync(this.json, { level: 6 });
    this[encoding] = body;
    this.grew(body.length);
    return body;
  }

  get bytes(): number {
    return this.json.length + (this.br?.length ?? 0) + (this.gzip?.length ?? 0);
  }
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
 * Keeps list answers cheap under load: the visible, sorted snapshot is kept per (scope, sort) at its latest
 * version only (cache revision and 5-second age bucket — ages move with the clock), a page is a slice of it,
 * and each answer is serialized (and compressed, when asked) once and reused. Snapshots and answers together
 * stay under `maxBytes`: the least recently used scope goes first.
 */
export class ListSnapshots {
  private readonly kept = new Map<string, Kept>();
  private readonly building = new Map<string, Building>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /** The page `query` asks for of the list `source` (built when its version is not kept yet). */
  async answer(source: ListSource, query: PageQuery): Promise<ListAnswer> {
    const key = `${source.scope}\u0000${query.sortBy ?? ''}`;
    const kept = await this.snapshot(key, source, query.sortBy);
    const answerKey = `${query.limit ?? ''}\u0000${query.continue ?? ''}`;
    let answer = kept.answers.get(answerKey);
    if (!answer) {
      answer = encode(pageOf(kept.sorted, query), (bytes) => {
        this.grow(kept, bytes);
        this.evict(key);
      });
      if (kept.answers.size >= answersPerSnapshot) this.forgetOldestAnswer(kept);
      kept.answers.set(answerKey, answer);
      this.grow(kept, answer.json.length);
    }
    this.evict(key);
    return answer;
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
    this.grow(kept, -oldest.bytes);
  }

  /** Drops the least recently used snapshots (never the one just answered from) until the budget holds. */
  private evict(current: string): void {
    for (const [key, kept] of this.kept) {
      if (this.bytes <= this.maxBytes) return;
      if (key !== current) this.forget(key, kept);
    }
  }
}

/** Each item's JSON, made once per item object: list items are shared between builds and never changed (src/kube/cache/table.ts). */
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
function encode(body: Page, grew: (bytes: number) => void): Encoded {
  const more = body.continue === undefined ? '' : `,"continue":${JSON.stringify(body.continue)}`;
  const json = Buffer.from(`{"items":[${body.items.map(jsonOf).join(',')}],"total":${body.total}${more}}`);
  return new Encoded(json, `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`, grew);
}

function brotli(json: Buffer): Buffer {
  return brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } });
}
