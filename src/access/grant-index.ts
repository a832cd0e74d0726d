import type { Clock } from '../clock.js';
import type { Principal } from '../rbac/principal.js';
import type { WatchEvent } from '../kube/custom-client.js';
import { accessRequestSchema, type AccessRequest } from '../crds/access-request.js';
import type { GrantCheck } from '../rbac/authorize.js';
import { clusterOfGrant, grantCovers, type GrantedAction } from './grant-rules.js';

/**
 * The AccessRequest objects of the Pilothouse namespace, kept in memory (fed by a list+watch
 * and by our own writes), so the synchronous grant check costs no cluster call.
 */
export class GrantIndex {
  private readonly objects = new Map<string, AccessRequest>();

  /** `homeCluster`: the cluster of requests without `spec.cluster` (config `cluster.name`). */
  constructor(
    private readonly clock: Clock,
    private readonly homeCluster: string,
  ) {}

  /**
   * The GrantCheck of one cluster's policy: only grants for that cluster count (a grant approved for
   * cluster `b` opens nothing on any other cluster).
   */
  checkFor(cluster: string): GrantCheck {
    return (principal: Principal, action: GrantedAction): boolean => {
      const now = this.clock();
      for (const object of this.objects.values()) {
        const mine = object.spec.requester === principal.username && clusterOfGrant(object.spec, this.homeCluster) === cluster;
        if (mine && grantCovers(object, action, now)) return true;
      }
      return false;
    };
  }

  /** Replaces the content after a (re)list. */
  replace(items: readonly AccessRequest[]): void {
    this.objects.clear();
    for (const item of items) this.objects.set(item.metadata.name, item);
  }

  upsert(object: AccessRequest): void {
    this.objects.set(object.metadata.name, object);
  }

  remove(name: string): void {
    this.objects.delete(name);
  }

  /** Applies one watch event (objects that do not parse are dropped). */
  apply(event: WatchEvent<unknown>): void {
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return;
    const parsed = accessRequestSchema.safeParse(event.object);
    if (!parsed.success) return;
    if (event.type === 'DELETED') this.remove(parsed.data.metadata.name);
    else this.upsert(parsed.data);
  }
}
