import type { AppError } from '../../errors.js';
import type { LabelSelector } from './label-selector.js';
import { ordinal } from './names.js';
import { rowToItem, type ResourceItem, type TableRow } from './table.js';
import type { TableCache } from './table-cache.js';

/** One live-list client of a feed. */
export interface FeedSubscriber {
  /** Whether the client may see the item (the namespaces the cluster lets it list, and our policy). */
  sees(item: ResourceItem): boolean;
  /** Equal for clients that see the same items: their snapshots are built and encoded once. */
  classKey(): string;
  /** Bytes written to the client and not yet taken by its connection. */
  pending(): number;
  /** Writes frames (a shared snapshot is one Buffer handed to every client, never copied per client). */
  write(frames: string | Buffer): void;
  /** The client fell too far behind: it gets `frame` (an `error` event) and its stream ends. */
  drop(frame: string): void;
}

/** Which rows of a cache a feed follows: one namespace (of an all-namespaces cache) and a label selector. */
export interface FeedTarget {
  kind: string;
  namespace?: string;
  selector?: LabelSelector;
  /** The selector as given (with the namespace, it names the feed). */
  selectorText?: string;
}

/** A client with more than this many bytes (beyond a snapshot) not taken by its connection is dropped (default 4 MiB). */
const defaultMaxPending = 4 * 1024 * 1024;

const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const keyOf = (row: TableRow): string => `${row.object?.metadata?.namespace ?? ''}/${row.object?.metadata?.name ?? ''}`;

function byNamespaceAndName(left: ResourceItem, right: ResourceItem): number {
  return ordinal(left.namespace ?? '', right.namespace ?? '') || ordinal(left.name, right.name);
}

/** Writes queued frames: strings joined into one write, a shared snapshot Buffer as it is. */
function writeFrames(subscriber: FeedSubscriber, frames: (string | Buffer)[]): void {
  let text = '';
  for (const part of frames) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    if (text) subscriber.write(text);
    subscriber.write(part);
    text = '';
  }
  if (text) subscriber.write(text);
}

/** The last event of a live list whose cache stopped (its cluster was removed, or the cache was let go). */
export const stoppedFrame = frame('error', {
  error: 'this live list ended: its cluster was removed or its cache was let go; open it again',
  code: 'UNAVAILABLE',
  details: { reason: 'cache_stopped' },
});

/** The last event of a live list whose cache the cluster refused (RBAC revoked): the 403 a new list would get. */
function refusedFrame(refusal: AppError): string {
  return frame('error', { error: refusal.message, code: refusal.code, details: refusal.details });
}

/** The event for a client that fell behind: the error body the contract uses, then the stream ends. */
export const droppedFrame = frame('error', {
  error: 'this live list fell too far behind the cluster and was closed; open it again',
  code: 'UNAVAILABLE',
  details: { reason: 'slow_client' },
});

/**
 * One upstream subscription to a cache for one target, fanned out to many live-list clients. Which rows
 * the target selects (label changes move rows in and out) is tracked once for all clients; each change is
 * turned into a list item and encoded once, and the same frame is written to every client that may see
 * the item. Snapshots (at subscription and after a relist) are built and encoded once per visibility
 * class. A client whose connection does not keep up is dropped with an `error` event instead of being
 * buffered without bound.
 */
class WatchFeed {
  private readonly subscribers = new Set<FeedSubscriber>();
  /** Frames waiting for the next write to each client (flushed once per turn of the event loop). */
  private queued = new Map<FeedSubscriber, { frames: (string | Buffer)[]; bytes: number }>();
  private flushing: NodeJS.Immediate | undefined;
  private readonly selected = new Set<string>();
  private readonly unsubscribe: () => void;
  /** The snapshots last encoded, per visibility class, with the cache revision and age bucket they show. */
  private snapshots = new Map<string, { version: string; bytes: Buffer }>();
  /** The largest snapshot sent: a client may be behind by that much more (it is taking it in). */
  private snapshotBytes = 0;

  constructor(
    private readonly cache: TableCache,
    private readonly target: FeedTarget,
    private readonly maxPending: number,
    private readonly onEmpty: () => void,
  ) {
    for (const row of cache.snapshot()) if (this.wanted(row)) this.selected.add(keyOf(row));
    this.unsubscribe = cache.onChange((change) => {
      if (change.type === 'stopped') this.end(change.refusal ? refusedFrame(change.refusal) : stoppedFrame);
      else if (change.type === 'resync') this.resync();
      else this.change(change.type, change.row);
    });
  }

  get size(): number {
    return this.subscribers.size;
  }

  add(subscriber: FeedSubscriber): () => void {
    this.subscribers.add(subscriber);
    this.sendSnapshots([subscriber]);
    return () => this.remove(subscriber);
  }

  /** Sends the subscribers a fresh snapshot (e.g. their access changed). */
  refresh(subscribers: FeedSubscriber[]): void {
    this.sendSnapshots(subscribers.filter((subscriber) => this.subscribers.has(subscriber)));
  }

  stop(): void {
    this.unsubscribe();
    this.subscribers.clear();
    this.queued.clear();
  }

  /** Ends every client with `frame` (the cache stopped: nothing more will come). */
  private end(frame: string): void {
    const subscribers = [...this.subscribers];
    this.stop();
    this.onEmpty();
    for (const subscriber of subscribers) subscriber.drop(frame);
  }

  private remove(subscriber: FeedSubscriber): void {
    if (!this.subscribers.delete(subscriber)) return;
    if (this.subscribers.size === 0) {
      this.unsubscribe();
      this.onEmpty();
    }
  }

  private wanted(row: TableRow): boolean {
    const { namespace, selector } = this.target;
    return (!namespace || row.object?.metadata?.namespace === namespace) && (!selector || selector.matches(row.object?.metadata?.labels));
  }

  private resync(): void {
    this.selected.clear();
    for (const row of this.cache.snapshot()) if (this.wanted(row)) this.selected.add(keyOf(row));
    this.sendSnapshots([...this.subscribers]);
  }

  private change(type: 'added' | 'modified' | 'deleted', row: TableRow): void {
    const key = keyOf(row);
    const matches = type !== 'deleted' && this.wanted(row);
    const was = this.selected.has(key);
    if (matches) this.selected.add(key);
    else this.selected.delete(key);
    if (!matches && !was) return;
    const event = matches ? (was ? 'modified' : 'added') : 'deleted';
    const item = rowToItem(this.cache.columns, row, Date.now(), this.target.kind);
    let encoded: string | undefined;
    for (const subscriber of this.subscribers) {
      if (!subscriber.sees(item)) continue;
      encoded ??= frame(event, { item, revision: this.cache.revision });
      this.deliver(subscriber, encoded);
    }
  }

  private sendSnapshots(subscribers: FeedSubscriber[]): void {
    if (subscribers.length === 0) return;
    // Clients joining at the same revision (and 5-second age bucket) get the same encoded snapshot.
    const version = `${this.cache.revision}@${Math.floor(Date.now() / 5_000)}`;
    let items: ResourceItem[] | undefined;
    for (const subscriber of subscribers) {
      const key = subscriber.classKey();
      let kept = this.snapshots.get(key);
      if (kept?.version !== version) {
        items ??= this.selectedItems();
        const visible = items.filter((item) => subscriber.sees(item));
        kept = { version, bytes: Buffer.from(frame('snapshot', { items: visible, total: visible.length, revision: this.cache.revision })) };
        if (this.snapshots.size >= 16) this.snapshots = new Map();
        this.snapshots.set(key, kept);
        this.snapshotBytes = Math.max(this.snapshotBytes, kept.bytes.length);
      }
      this.deliver(subscriber, kept.bytes);
    }
  }

  private selectedItems(): ResourceItem[] {
    const now = Date.now();
    return this.cache
      .snapshot()
      .filter((row) => this.selected.has(keyOf(row)))
      .map((row) => rowToItem(this.cache.columns, row, now, this.target.kind))
      .sort(byNamespaceAndName);
  }

  /**
   * Queues a frame for the client; the frames of one turn of the event loop (a watch chunk often carries many
   * events) go out as one write per client.
   */
  private deliver(subscriber: FeedSubscriber, text: string | Buffer): void {
    const queued = this.queued.get(subscriber);
    const queuedBytes = queued ? queued.bytes : 0;
    if (subscriber.pending() + queuedBytes > this.maxPending + this.snapshotBytes) {
      this.queued.delete(subscriber);
      this.remove(subscriber);
      subscriber.drop(droppedFrame);
      return;
    }
    if (queued) {
      queued.frames.push(text);
      queued.bytes += text.length;
    } else this.queued.set(subscriber, { frames: [text], bytes: text.length });
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = undefined;
    const queued = this.queued;
    this.queued = new Map();
    for (const [subscriber, { frames }] of queued) if (this.subscribers.has(subscriber)) writeFrames(subscriber, frames);
  }
}

/**
 * The live lists of the service: one feed per (cache, namespace, label selector), shared by every client
 * of that list (docs/adr/0033), started with its first client and stopped with its last.
 */
export class WatchFeeds {
  private readonly feeds = new Map<string, { cache: TableCache; feed: WatchFeed }>();
  private readonly ids = new WeakMap<TableCache, number>();
  private nextId = 0;

  constructor(private readonly maxPending = defaultMaxPending) {}

  /** Subscribes a client (it gets its snapshot at once); returns the unsubscribe function. */
  subscribe(cache: TableCache, target: FeedTarget, subscriber: FeedSubscriber): () => void {
    return this.feedOf(cache, target).add(subscriber);
  }

  /** Sends the clients a fresh snapshot (their access changed). */
  refresh(cache: TableCache, target: FeedTarget, subscribers: FeedSubscriber[]): void {
    this.feeds.get(this.key(cache, target))?.feed.refresh(subscribers);
  }

  /** How many feeds (upstream subscriptions) and clients there are. */
  counts(): { feeds: number; clients: number } {
    let clients = 0;
    for (const { feed } of this.feeds.values()) clients += feed.size;
    return { feeds: this.feeds.size, clients };
  }

  private feedOf(cache: TableCache, target: FeedTarget): WatchFeed {
    const key = this.key(cache, target);
    let entry = this.feeds.get(key);
    if (!entry || entry.cache !== cache) {
      entry?.feed.stop();
      const feed = new WatchFeed(cache, target, this.maxPending, () => {
        if (this.feeds.get(key)?.feed === feed) this.feeds.delete(key);
      });
      entry = { cache, feed };
      this.feeds.set(key, entry);
    }
    return entry.feed;
  }

  private key(cache: TableCache, target: FeedTarget): string {
    let id = this.ids.get(cache);
    if (id === undefined) this.ids.set(cache, (id = this.nextId++));
    return `${id}\u0000${target.namespace ?? ''}\u0000${target.selectorText ?? ''}`;
  }
}
