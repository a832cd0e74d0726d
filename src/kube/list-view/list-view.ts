import type { Clock } from '../../clock.js';
import type { CacheManager } from '../cache/cache-manager.js';
import type { KubeIdentityClient } from '../clients.js';
import type { ResourceType } from '../discovery.js';
import { parseLabelSelector } from '../cache/label-selector.js';
import type { FeedTarget } from '../cache/watch-feeds.js';
import type { PageQuery } from './order.js';
import { listResources } from './rows.js';
import { ListSnapshots, type ListAnswer } from './snapshots.js';
import { Visibility } from './visibility.js';

/** What a caller asks of a list: the kind (as the route names it), one namespace or all, a label selector. */
export interface ListRequest {
  /** The kind, as the request's authorization resolved it (one discovery lookup per request). */
  type: ResourceType;
  namespace?: string;
  labelSelector?: string;
  /** Namespaces our policy hides from the caller (src/rbac, ADR 0017), as plain data; absent when none. */
  hidden?: ReadonlySet<string>;
}

/** A live list's start: its cache and target, what the caller sees, and how to ask again after an RBAC change. */
export interface LiveList {
  target: FeedTarget;
  visibility: Visibility;
  /** The caller's visibility again: rejects with the 403 (ListRefused) when they may list nothing any more. */
  recheck(): Promise<Visibility>;
}

/** How long a built list answer is reused while the cache does not change (ages are at most this old, plus one rebuild while the kept answer is served). */
const ageBucketMs = 5_000;

/**
 * Every list and live list of a cluster resource, below HTTP (docs/development/architecture.md, "The list path"): the kind
 * the request's authorization resolved (no second discovery lookup), the caller's view of the shared cache (src/kube/cache/cache-manager.ts: the cluster's access set),
 * field and label filtering, our policy's hidden namespaces, sort and page, and the list's version (cache
 * revision and 5-second age bucket on the injected clock). Answers are built once per visibility class and
 * kept (src/kube/list-view/snapshots.ts); the HTTP layer only writes them.
 */
export class ListView {
  private readonly snapshots: ListSnapshots;

  constructor(
    private readonly caches: CacheManager,
    private readonly clock: Clock,
    maxBytes?: number,
  ) {
    this.snapshots = new ListSnapshots(maxBytes);
  }

  /** The page of the list the caller asks for, as its JSON answer (built once per visibility class and version). */
  async page(client: KubeIdentityClient, request: ListRequest, page: PageQuery): Promise<ListAnswer> {
    const type = request.type;
    const selector = request.labelSelector ? parseLabelSelector(request.labelSelector) : undefined;
    const visibility = new Visibility(await this.caches.view(client, type, request.namespace), type, request.hidden);
    const revision = visibility.view.cache.revision;
    const scope = [visibility.classKey(), type.group, type.plural, request.namespace ?? '', request.labelSelector ?? ''].join('\u0000');
    const version = `${revision}@${Math.floor(this.clock() / ageBucketMs)}`;
    const build = async (): Promise<ReturnType<typeof listResources>> =>
      visibility.shownItems(listResources(visibility.view, { type, namespace: request.namespace, selector }, this.clock()));
    // Events read newest first unless the caller sorts them otherwise (their names are hashes, not an order).
    const ordered = page.sortBy === undefined && type.plural === 'events' && type.group === '' ? { ...page, sortBy: 'lastSeen' } : page;
    return this.snapshots.answer({ scope, version, content: revision, build }, ordered);
  }

  /** A live list's start (the first list has happened, so its failures are the request's error). */
  async live(client: KubeIdentityClient, request: ListRequest): Promise<LiveList> {
    const type = request.type;
    const selector = request.labelSelector ? parseLabelSelector(request.labelSelector) : undefined;
    const visibilityOf = async (): Promise<Visibility> => new Visibility(await this.caches.view(client, type, request.namespace), type, request.hidden);
    const visibility = await visibilityOf();
    return { target: feedTarget(type, request, selector), visibility, recheck: visibilityOf };
  }
}

function feedTarget(type: ResourceType, request: ListRequest, selector: FeedTarget['selector']): FeedTarget {
  return { kind: type.kind, namespace: type.namespaced ? request.namespace : undefined, selector, selectorText: request.labelSelector };
}
