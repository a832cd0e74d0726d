import type { Logger } from 'pino';
import { isAppError, type AppError } from '../../errors.js';
import { collectionPath, type ResourceType } from '../discovery.js';
import type { RestClient } from '../rest-client.js';
import { tableAccept, type Table, type TableColumn, type TableRow } from './table.js';
import { readTable } from './table-stream.js';
import { jsonLines } from '../watch-stream.js';

interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: Table & { code?: number; metadata?: { resourceVersion?: string } };
}

function rowKey(row: TableRow): string {
  const metadata = row.object?.metadata;
  return `${metadata?.namespace ?? ''}/${metadata?.name ?? ''}`;
}

class ExpiredError extends Error {}

/**
 * A row change, `resync` after a relist, `stopped` once the cache is stopped (its cluster removed, evicted, or
 * its list refused: then `refusal` is the API server's 403 and the rows are gone).
 */
export type RowChange = { type: 'added' | 'modified' | 'deleted'; row: TableRow } | { type: 'resync' } | { type: 'stopped'; refusal?: AppError };

function watchError(event: WatchEvent): Error {
  if (event.object.code === 410) return new ExpiredError('resource version expired');
  return new Error(`watch error ${event.object.code ?? ''}`);
}

/** The resourceVersion an event carries (bookmarks in metadata, Table rows in their object). */
function eventVersion(event: WatchEvent): string | undefined {
  return event.object.metadata?.resourceVersion ?? event.object.rows?.[0]?.object?.metadata?.resourceVersion;
}

/** Repeated strings (statuses, node names, images, label values) are stored once. */
const interned = new Map<string, string>();
function intern(value: string): string {
  if (value.length > 256) return value;
  let known = interned.get(value);
  if (known === undefined) {
    if (interned.size > 200_000) interned.clear();
    interned.set(value, value);
    known = value;
  }
  return known;
}

function internLabels(labels: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!labels) return undefined;
  const slim: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels)) slim[intern(key)] = intern(value);
  return slim;
}

/**
 * Keeps only what a row, the filters and the authorization checks read: the cells and the object's name,
 * namespace, creation and deletion time and labels. managedFields, annotations (such as
 * last-applied-configuration), uid, resourceVersion and the rest of the metadata are dropped as the row
 * arrives. The name is stored once (the first cell is the name), other repeated strings are interned.
 */
export function slimRow(row: TableRow): TableRow {
  const metadata = row.object?.metadata;
  const cells = row.cells.map((cell, index) => (typeof cell === 'string' && index > 0 ? intern(cell) : cell));
  if (!metadata) return { cells };
  return {
    cells,
    object: {
      metadata: {
        name: cells[0] === metadata.name ? (cells[0] as string) : metadata.name,
        ...(metadata.namespace ? { namespace: intern(metadata.namespace) } : {}),
        ...(metadata.creationTimestamp ? { creationTimestamp: intern(metadata.creationTimestamp) } : {}),
        ...(metadata.deletionTimestamp ? { deletionTimestamp: metadata.deletionTimestamp } : {}),
        ...(metadata.labels ? { labels: internLabels(metadata.labels) } : {}),
      },
    },
  };
}

/**
 * A watch-fed cache of one resource type (in one namespace or all), stored in the API
 * server's Table format so every kind, CRDs included, lists with kubectl's columns.
 * Level-based: on any watch failure it relists, so it never trusts a single missed event.
 */
export class TableCache {
  columns: TableColumn[] = [];
  private rows = new Map<string, TableRow>();
  /** How many rows each namespace has (the namespaces a caller's access is computed for). */
  private namespaceCounts = new Map<string, number>();
  private resourceVersion = '';
  private stopped = false;
  private abort = new AbortController();
  private listeners = new Set<() => void>();
  private changeListeners = new Set<(change: RowChange) => void>();
  readonly synced: Promise<void>;
  lastUsed = Date.now();
  /** True once the first list has been loaded. */
  isSynced = false;
  /** How long each watch request lasts (seconds) before it is made again; default 5 to 10 minutes (tests shorten it). */
  watchTimeoutSeconds: number | undefined;

  constructor(
    private readonly rest: RestClient,
    readonly type: ResourceType,
    readonly namespace: string | undefined,
    private readonly logger: Logger,
  ) {
    this.synced = this.list();
    this.synced.then(() => this.watchLoop()).catch(() => undefined);
  }

  /** Current rows (a snapshot). */
  snapshot(): TableRow[] {
    this.lastUsed = Date.now();
    return [...this.rows.values()];
  }

  get size(): number {
    return this.rows.size;
  }

  /** The namespaces the cached rows are in (none for a cluster-scoped kind). */
  namespaces(): IterableIterator<string> {
    return this.namespaceCounts.keys();
  }

  /** Called after every change the watch delivers; returns an unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with every row change (and `resync` after a relist); returns an unsubscribe function. */
  onChange(listener: (change: RowChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** The resourceVersion the cache is at (changes with every event). */
  get revision(): string {
    return this.resourceVersion;
  }

  /** True once stopped: it follows the cluster no more (a new cache must be made). */
  get isStopped(): boolean {
    return this.stopped;
  }

  /**
   * Stops the watch. With `refusal` (the cluster refused its list: RBAC revoked) the rows are dropped too, so
   * nothing listed before the refusal is served after it, and live lists end with that 403.
   */
  stop(refusal?: AppError): void {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort();
    if (refusal) {
      this.rows = new Map();
      this.namespaceCounts = new Map();
    }
    // Live lists on this cache end instead of going quiet (src/kube/cache/watch-feeds.ts).
    this.emit(refusal ? { type: 'stopped', refusal } : { type: 'stopped' });
  }

  private path(): string {
    return collectionPath(this.type, this.namespace);
  }

  private async list(): Promise<void> {
    const response = await this.rest.raw('GET', this.path(), {
      accept: tableAccept,
      query: { includeObject: 'Metadata' },
      signal: this.abort.signal,
      target: this.type.plural,
    });
    // Rows are slimmed one by one as they arrive: the full answer (managedFields and all) is never held at once.
    const rows = new Map<string, TableRow>();
    const table = await readTable(response, (received) => {
      const row = slimRow(received);
      rows.set(rowKey(row), row);
    });
    this.columns = table.columnDefinitions ?? [];
    this.rows = rows;
    this.namespaceCounts = new Map();
    for (const row of rows.values()) this.count(row, 1);
    this.resourceVersion = table.metadata?.resourceVersion ?? '';
    const wasSynced = this.isSynced;
    this.isSynced = true;
    if (wasSynced) this.emit({ type: 'resync' });
    this.notify();
  }

  private async watchLoop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.watchOnce();
        failures = 0;
      } catch (error) {
        if (this.stopped) return;
        failures += 1;
        if (!(error instanceof ExpiredError)) {
          this.logger.debug({ resource: this.type.plural, err: String(error) }, 'watch failed, relisting');
          await delay(Math.min(30_000, 250 * 2 ** failures));
        }
        await this.relist();
      }
    }
  }

  /** Lists again after a watch failure; a list the cluster now refuses empties and stops the cache. */
  private async relist(): Promise<void> {
    try {
      await this.list();
    } catch (error) {
      if (isAppError(error) && error.code === 'FORBIDDEN' && !this.stopped) this.stop(error);
    }
  }

  private async watchOnce(): Promise<void> {
    const response = await this.rest.raw('GET', this.path(), {
      accept: tableAccept,
      query: {
        watch: 1,
        resourceVersion: this.resourceVersion,
        allowWatchBookmarks: true,
        includeObject: 'Metadata',
        timeoutSeconds: this.watchTimeoutSeconds ?? 300 + Math.floor(Math.random() * 300),
      },
      signal: this.abort.signal,
      target: this.type.plural,
    });
    for await (const event of jsonLines<WatchEvent>(response)) this.apply(event);
  }

  private apply(event: WatchEvent): void {
    if (event.type === 'ERROR') throw watchError(event);
    this.resourceVersion = eventVersion(event) ?? this.resourceVersion;
    if (event.type === 'BOOKMARK') return;
    if (event.object.columnDefinitions?.length) this.columns = event.object.columnDefinitions;
    for (const received of event.object.rows ?? []) this.applyRow(event.type === 'DELETED', slimRow(received));
    this.notify();
  }

  private applyRow(deleted: boolean, row: TableRow): void {
    const key = rowKey(row);
    const known = this.rows.has(key);
    if (deleted) {
      if (known) this.count(row, -1);
      this.rows.delete(key);
      this.emit({ type: 'deleted', row });
      return;
    }
    if (!known) this.count(row, 1);
    this.rows.set(key, row);
    this.emit({ type: known ? 'modified' : 'added', row });
  }

  private count(row: TableRow, by: 1 | -1): void {
    const namespace = row.object?.metadata?.namespace;
    if (!namespace) return;
    const count = (this.namespaceCounts.get(namespace) ?? 0) + by;
    if (count > 0) this.namespaceCounts.set(namespace, count);
    else this.namespaceCounts.delete(namespace);
  }

  private emit(change: RowChange): void {
    for (const listener of this.changeListeners) listener(change);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
