import type { Logger } from 'pino';
import type { ResourceType } from './discovery.js';
import type { KubeIdentityClient } from './clients.js';
import { TableCache } from './table-cache.js';

/**
 * Owns the watch-fed caches: one per (identity, resource type, namespace or all),
 * started on first use and stopped after `idleMs` without use. A namespace list is
 * served from a synced all-namespaces cache of the same identity when one exists.
 */
export class CacheManager {
  private readonly caches = new Map<string, TableCache>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly logger: Logger,
    private readonly idleMs = 10 * 60_000,
    /** At most this many caches (watches) at once; the least recently used one is stopped first. */
    private readonly maxCaches = 256,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  /** A synced cache for the request; the first call for a key waits for the initial list. */
  async get(client: KubeIdentityClient, type: ResourceType, namespace?: string): Promise<TableCache> {
    const scope = type.namespaced ? namespace : undefined;
    if (scope) {
      // An all-namespaces cache of the same identity answers namespace lists too, even while its first list is loading.
      const wide = this.caches.get(this.key(client, type, undefined));
      if (
        wide &&
        (wide.isSynced ||
          (await wide.synced.then(
            () => true,
            () => false,
          )))
      )
        return wide;
    }
    const key = this.key(client, type, scope);
    let cache = this.caches.get(key);
    if (!cache) {
      this.evictLeastRecentlyUsed();
      cache = new TableCache(client.rest, type, scope, this.logger);
      this.caches.set(key, cache);
    }
    try {
      await cache.synced;
    } catch (error) {
      cache.stop();
      this.caches.delete(key);
      throw error;
    }
    return cache;
  }

  /** Cached object counts per resource type (for /metrics). */
  sizes(): { resource: string; namespace: string; size: number }[] {
    return [...this.caches.values()].map((cache) => ({
      resource: cache.type.plural,
      namespace: cache.namespace ?? '*',
      size: cache.size,
    }));
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const cache of this.caches.values()) cache.stop();
    this.caches.clear();
  }

  private key(client: KubeIdentityClient, type: ResourceType, namespace: string | undefined): string {
    return [client.identity ?? '', type.group, type.plural, namespace ?? '*'].join('|');
  }

  /** Keeps the number of watches bounded whatever callers ask for (e.g. many made-up namespaces). */
  private evictLeastRecentlyUsed(): void {
    while (this.caches.size >= this.maxCaches) {
      let oldestKey: string | undefined;
      let oldest = Infinity;
      for (const [key, cache] of this.caches) {
        if (cache.lastUsed < oldest) [oldest, oldestKey] = [cache.lastUsed, key];
      }
      if (oldestKey === undefined) return;
      this.caches.get(oldestKey)?.stop();
      this.caches.delete(oldestKey);
    }
  }

  /** How many caches (and so watches) are running. */
  get count(): number {
    return this.caches.size;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, cache] of this.caches) {
      if (now - cache.lastUsed > this.idleMs) {
        cache.stop();
        this.caches.delete(key);
      }
    }
  }
}
