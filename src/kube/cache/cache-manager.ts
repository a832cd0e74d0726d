import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import { ListAccessSets, ListRefused, type ListAccess } from './list-access.js';
import type { ResourceType } from '../discovery.js';
import type { KubeIdentityClient } from '../clients.js';
import { TableCache } from './table-cache.js';
import type { Clock } from '../../clock.js';

/** Limits of the cache manager. */
export interface CacheLimits {
  /** A cache unused this long is stopped (default 10 minutes). */
  idleMs?: number;
  /** At most this many caches (watches) at once; the least recently used one is stopped first (default 256). */
  maxCaches?: number;
  /** Injected time: how old a kept access answer may be (src/kube/cache/list-access.ts). */
  clock?: Clock;
}

const everything: ListAccess = { all: true };

/** A cache listed and watched as a caller (the service may not list it), with that caller: checked again on every RBAC change. */
interface CallerCache {
  client: KubeIdentityClient;
  type: ResourceType;
  scope: string | undefined;
}

/** One caller's view of a shared cache: the cache and the namespaces of it the cluster lets the caller list. */
export interface CacheView {
  cache: TableCache;
  access: ListAccess;
}

/** Whether a row in `namespace` is in the caller's view. */
export function inView(access: ListAccess, namespace: string | undefined): boolean {
  return access.all || (namespace !== undefined && access.namespaces.has(namespace));
}

/**
 * Owns the watch-fed caches: one per (resource type, namespace or all) under the service's own
 * identity, shared by every caller, started on first use and stopped after `idleMs` without use. A
 * namespace list is served from a synced all-namespaces cache when one exists. Each caller sees the
 * namespaces of it the cluster lets them list (src/kube/cache/list-access.ts); when that cannot be computed,
 * their list is made as them, into a cache of their own, served only while the cluster says (an answer at most
 * 30 s old, dropped on RBAC changes) they may make that list. A caller's cache whose caller is refused stops
 * and drops its rows (its live lists end with the 403). Caches are keyed by the caller's whole identity.
 */
export class CacheManager {
  private readonly caches = new Map<string, TableCache>();
  private readonly callerCaches = new Map<string, CallerCache>();
  /** Kinds and scopes the service's own identity was refused, until when (their lists are made as each caller). */
  private readonly refusedToService = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;
  private readonly idleMs: number;
  private readonly maxCaches: number;
  readonly access: ListAccessSets;

  constructor(
    private readonly logger: Logger,
    /** The service's own client: every shared cache lists and watches with it. */
    private readonly own: () => KubeIdentityClient,
    limits: CacheLimits = {},
  ) {
    this.idleMs = limits.idleMs ?? 10 * 60_000;
    this.maxCaches = limits.maxCaches ?? 256;
    this.access = new ListAccessSets(() => own().rest, logger, limits.clock);
    this.access.onChange(() => this.recheckCallers());
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  /**
   * The caller's view of the shared cache for the request. The cluster's answer for the caller decides:
   * a list in one namespace (or of a cluster-scoped kind) they may not make is refused with the API server's
   * 403, as is a list across all namespaces when they may list in none of them.
   */
  async view(client: KubeIdentityClient, type: ResourceType, namespace?: string): Promise<CacheView> {
    const scope = type.namespaced ? namespace : undefined;
    if (client.identity === undefined) return { cache: await this.cacheFor(this.own(), type, scope), access: everything };
    const refusedKey = this.key(this.own(), type, scope);
    if ((this.refusedToService.get(refusedKey) ?? 0) <= Date.now()) {
      const view = await this.sharedView(client, type, scope, refusedKey);
      if (view) return view;
    }
    return this.callerView(client, type, scope);
  }

  /** The shared cache, cut by the caller's access; undefined when the service may not list it (or the review failed). */
  private async sharedView(client: KubeIdentityClient, type: ResourceType, scope: string | undefined, refusedKey: string): Promise<CacheView | undefined> {
    const shared = (): Promise<TableCache> => this.cacheFor(this.own(), type, scope);
    try {
      const access = await this.access.of(client, type, scope, async () => (await shared()).namespaces());
      if (!access.all && access.namespaces.size === 0) throw new ListRefused(client, type, scope);
      return { cache: await shared(), access };
    } catch (error) {
      if (error instanceof ListRefused) throw error;
      this.notShared(refusedKey, type, error);
      return undefined;
    }
  }

  /**
   * The caller's own cache (listed and watched as them), after the cluster said they may make this list. A refusal
   * stops their caches of it; when the review itself fails, only a list the API server authorizes now is served
   * (their cache is made again).
   */
  private async callerView(client: KubeIdentityClient, type: ResourceType, scope: string | undefined): Promise<CacheView> {
    const allowed = await this.access.mayList(client, type, scope).catch(() => undefined);
    if (allowed === false) {
      const refusal = new ListRefused(client, type, scope);
      this.stopCallerCaches(client, type, scope, refusal);
      throw refusal;
    }
    if (allowed === undefined) this.stopCallerCaches(client, type, scope);
    const cache = await this.cacheFor(client, type, scope);
    this.callerCaches.set(this.key(client, type, cache.namespace), { client, type, scope: cache.namespace });
    return { cache, access: everything };
  }

  /** Stops the caller's caches that would answer a list in `scope` (the scope's, and the all-namespaces one). */
  private stopCallerCaches(client: KubeIdentityClient, type: ResourceType, scope: string | undefined, refusal?: AppError): void {
    this.stopCache(this.key(client, type, scope), refusal);
    if (scope !== undefined) this.stopCache(this.key(client, type, undefined), refusal);
  }

  private stopCache(key: string, refusal?: AppError): void {
    const cache = this.caches.get(key);
    this.callerCaches.delete(key);
    if (!cache) return;
    this.caches.delete(key);
    cache.stop(refusal);
  }

  /** After an RBAC change (and every 30 s): each cache listed as a caller stops once that caller may no longer list it. */
  private recheckCallers(): void {
    for (const [key, entry] of this.callerCaches) {
      if (!this.caches.has(key)) {
        this.callerCaches.delete(key);
        continue;
      }
      this.access.mayList(entry.client, entry.type, entry.scope).then(
        (allowed) => {
          if (!allowed) this.stopCache(key, new ListRefused(entry.client, entry.type, entry.scope));
        },
        () => undefined,
      );
    }
  }

  /**
   * The review failed, or the service itself may not list the kind: the caller's list is made as them. A kind the
   * service was refused (e.g. Secrets outside its namespace) is not tried again for a minute.
   */
  private notShared(refusedKey: string, type: ResourceType, error: unknown): void {
    if (error instanceof AppError && error.code === 'FORBIDDEN') this.refusedToService.set(refusedKey, Date.now() + 60_000);
    this.logger.debug({ resource: type.plural, err: String(error) }, 'cannot serve this list from the shared cache; listing as the caller');
  }

  /** The shared cache for the request, as the caller may see it (see `view`); its rows are not filtered. */
  async get(client: KubeIdentityClient, type: ResourceType, namespace?: string): Promise<TableCache> {
    return (await this.view(client, type, namespace)).cache;
  }

  /** A synced cache listed and watched by `client`; the first call for a key waits for the initial list. */
  private async cacheFor(client: KubeIdentityClient, type: ResourceType, scope: string | undefined): Promise<TableCache> {
    // An all-namespaces cache of the same identity answers namespace lists too, even while its first list is loading.
    const wide = scope ? await this.syncedWide(client, type) : undefined;
    if (wide) return wide;
    const key = this.key(client, type, scope);
    let cache = this.caches.get(key);
    // A cache whose relist the cluster refused stopped itself: a new one lists again (and meets the refusal itself).
    if (!cache || cache.isStopped) {
      // A closed manager (its cluster removed, the service stopping) starts no watch that nothing would stop.
      if (this.closed) throw new AppError('UNAVAILABLE', 'the cluster is being removed or the service is stopping');
      this.caches.delete(key);
      this.evictLeastRecentlyUsed();
      cache = new TableCache(client.rest, type, scope, this.logger);
      this.caches.set(key, cache);
    }
    try {
      await cache.synced;
    } catch (error) {
      cache.stop();
      if (this.caches.get(key) === cache) this.caches.delete(key);
      throw error;
    }
    return cache;
  }

  /** The identity's all-namespaces cache of the kind, once synced (undefined: none, stopped, or its list failed). */
  private async syncedWide(client: KubeIdentityClient, type: ResourceType): Promise<TableCache | undefined> {
    const wide = this.caches.get(this.key(client, type, undefined));
    if (!wide || wide.isStopped) return undefined;
    const synced =
      wide.isSynced ||
      (await wide.synced.then(
        () => true,
        () => false,
      ));
    return synced && !wide.isStopped ? wide : undefined;
  }

  /**
   * Cached objects per resource type, summed over every cache of the type (for /metrics, which the chart may
   * publish): no namespace and no caller, so the answer says neither which namespaces hold how many objects nor
   * who listed what (per-caller caches count into their type's sum).
   */
  sizes(): { resource: string; size: number }[] {
    const totals = new Map<string, number>();
    // By plural, as before: kinds of one plural in two groups (events, events.k8s.io) add up, as the objects they hold do.
    for (const cache of this.caches.values()) totals.set(cache.type.plural, (totals.get(cache.type.plural) ?? 0) + cache.size);
    return [...totals].map(([resource, size]) => ({ resource, size }));
  }

  /** How many caches (watches) of the resource type (plural) are open, shared and per caller. */
  cacheCount(resource: string): number {
    return [...this.caches.values()].filter((cache) => cache.type.plural === resource).length;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    this.access.close();
    for (const cache of this.caches.values()) cache.stop();
    this.caches.clear();
    this.callerCaches.clear();
  }

  /** The caller's whole identity (user and groups: the same user name in other groups is another caller), the kind and scope. */
  private key(client: KubeIdentityClient, type: ResourceType, namespace: string | undefined): string {
    const identity = client.identity === undefined ? '' : JSON.stringify([client.identity, ...[...(client.groups ?? [])].sort()]);
    return [identity, type.group, type.plural, namespace ?? '*'].join('|');
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
