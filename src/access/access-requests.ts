import type { Logger } from 'pino';
import { ownsOrAdministers } from '../rbac/ownership.js';
import type { AuditRecorder } from '../audit/types.js';
import type { Clock } from '../clock.js';
import type { Principal } from '../rbac/principal.js';
import type { AccessRequest } from '../crds/access-request.js';
import { AppError, forbidden, notFound, validation } from '../errors.js';
import type { Discovery } from '../kube/discovery.js';
import type { RestClient } from '../kube/rest-client.js';
import type { GrantCheck } from '../rbac/authorize.js';
import { recordAccessEvent, type AccessActor } from './access-request-audit.js';
import { AccessRequestReview, type Decision } from './access-request-review.js';
import type { CreateAccessRequest } from './access-request-schemas.js';
import { AccessRequestStore } from './access-request-store.js';
import { accessRequestView, type AccessRequestView } from './access-request-view.js';
import { GrantIndex } from './grant-index.js';
import { clusterOfGrant, type AccessPhase } from './grant-rules.js';
import { GrantWatch } from './grant-watch.js';

/**
 * The clusters a request may name (ADR 0035; the composition root hands the cluster set's view): the
 * home cluster's name, whether a name is known now, and each cluster's discovery (a request's resource
 * names are that cluster's plural names).
 */
export interface AccessClusters {
  readonly homeName: string;
  has(name: string): boolean;
  discovery(name: string): Discovery;
}

/** One cluster, the home cluster: what `AccessClusters` is without `clusters:` or cluster Secrets. */
export function homeClusterOnly(homeName: string, discovery: Discovery): AccessClusters {
  return { homeName, has: (name) => name === homeName, discovery: () => discovery };
}

export interface AccessRequestsOptions {
  rest: RestClient;
  namespace: string;
  /** The home cluster's discovery (used when `clusters` is absent). */
  discovery: Discovery;
  /** The clusters a request may name; absent: the home cluster only, named `home` (the default `cluster.name`). */
  clusters?: AccessClusters;
  audit: AuditRecorder;
  clock: Clock;
  logger: Logger;
}

/**
 * Just-in-time access requests (docs/adr/0007-just-in-time-access-grants.md): users ask, admins approve or deny, an
 * approval lasts for its TTL. AccessRequest objects are the source of truth; an in-memory index
 * fed by a watch answers the synchronous grant check of the permission matrix.
 */
export class AccessRequests {
  readonly store: AccessRequestStore;
  private readonly index: GrantIndex;
  private readonly watch: GrantWatch;
  private readonly review: AccessRequestReview;
  private readonly clusters: AccessClusters;

  constructor(private readonly options: AccessRequestsOptions) {
    this.clusters = options.clusters ?? homeClusterOnly('home', options.discovery);
    this.store = new AccessRequestStore(options.rest, options.namespace);
    this.index = new GrantIndex(options.clock, this.clusters.homeName);
    this.watch = new GrantWatch(this.store.client, this.index, options.logger);
    this.review = new AccessRequestReview(this.store, options.audit, options.clock, this.clusters.homeName);
  }

  /** The home cluster's grant check: `grantCheckFor` the home cluster. */
  get grantCheck(): GrantCheck {
    return this.index.checkFor(this.clusters.homeName);
  }

  /**
   * Whether a principal holds an approved, unexpired grant for this cluster covering an action: each
   * cluster's PolicyEngine gets its own, so a grant holds on the cluster it names only.
   */
  grantCheckFor(clusterName: string): GrantCheck {
    return this.index.checkFor(clusterName);
  }

  /** Starts the watch feeding the grant index (every replica). */
  start(): void {
    this.watch.start();
  }

  stop(): void {
    this.watch.stop();
  }

  /**
   * Files a request for the caller on `cluster` (absent: the home cluster; an unknown name is 404 with
   * `details.cluster`); viewers are refused (a grant never lifts the viewer role).
   */
  async create(actor: AccessActor, input: CreateAccessRequest, cluster?: string): Promise<AccessRequestView> {
    const target = this.knownCluster(cluster);
    if (actor.principal.role === 'viewer') {
      const details = { permission: input.permission };
      recordAccessEvent(this.options.audit, actor, { id: '-', event: 'requested', cluster: target, details, refusal: 'role' });
      throw forbidden('role viewer cannot be granted write access; ask an admin for the user role', { reason: 'role' });
    }
    if (input.permission === 'delete')
      throw validation('permission "delete" cannot be requested: delete is admin-only; ask for execute_write', {
        fields: { permission: 'delete is admin-only' },
      });
    const resources = await this.canonicalResources(target, input.resources);
    const spec = { ...input, requester: actor.principal.username, namespaces: [...new Set(input.namespaces)], resources, cluster: target };
    const object = await this.store.create(spec);
    this.index.upsert(object);
    const { requester, permission, namespaces, reason, ttl } = spec;
    recordAccessEvent(this.options.audit, actor, {
      id: object.metadata.name,
      event: 'requested',
      cluster: target,
      details: { requester, permission, namespaces, resources, reason, ttl, cluster: target },
    });
    return this.view(object);
  }

  /** The caller's requests (every request for admins), newest first, optionally of one phase and one cluster. */
  async list(principal: Principal, filter: { phase?: AccessPhase; cluster?: string } = {}): Promise<AccessRequestView[]> {
    const views = (await this.store.list()).filter((object) => visibleTo(principal, object)).map((object) => this.view(object));
    const { phase, cluster } = filter;
    return views
      .filter((view) => (!phase || view.phase === phase) && (!cluster || view.cluster === cluster))
      .sort((left, right) => (right.createdAt ?? '').localeCompare(left.createdAt ?? ''));
  }

  async get(principal: Principal, id: string): Promise<AccessRequestView> {
    return this.view(await this.visible(principal, id));
  }

  /** Approves or denies a Pending request (admin; an approval needs a reviewer other than the requester). */
  async decide(actor: AccessActor, id: string, decision: Decision, comment?: string): Promise<AccessRequestView> {
    const written = await this.review.decide(actor, id, decision, comment);
    this.index.upsert(written);
    return this.view(written);
  }

  /** Deletes a request: the requester withdraws their own (any phase), an admin revokes any. */
  async remove(actor: AccessActor, id: string): Promise<{ id: string; event: 'withdrawn' | 'revoked'; phase: AccessPhase }> {
    const object = await this.visible(actor.principal, id);
    const event = object.spec.requester === actor.principal.username ? 'withdrawn' : 'revoked';
    const phase = this.view(object).phase;
    await this.store.delete(id);
    this.index.remove(id);
    const cluster = clusterOfGrant(object.spec, this.clusters.homeName);
    recordAccessEvent(this.options.audit, actor, { id, event, cluster, details: { requester: object.spec.requester, phase } });
    return { id, event, phase };
  }

  private async visible(principal: Principal, id: string): Promise<AccessRequest> {
    const object = await this.store.get(id);
    if (!object || !visibleTo(principal, object)) throw notFound(`access request ${id} not found`, { id });
    return object;
  }

  /** The named cluster, or the home cluster; 404 NOT_FOUND (`details.cluster`) for a name no cluster has. */
  private knownCluster(name: string | undefined): string {
    const cluster = name === undefined || name === '' ? this.clusters.homeName : name;
    if (!this.clusters.has(cluster)) throw notFound(`cluster "${cluster}" not found`, { cluster });
    return cluster;
  }

  /** Resource names as the target cluster's plural names (`deploy` → `deployments`); `*` stays. */
  private async canonicalResources(cluster: string, resources: readonly string[]): Promise<string[]> {
    const discovery = this.clusters.discovery(cluster);
    const names = await Promise.all(resources.map((name) => (name === '*' ? '*' : pluralOf(discovery, name))));
    return [...new Set(names)];
  }

  private view(object: AccessRequest): AccessRequestView {
    return accessRequestView(object, this.options.clock(), this.clusters.homeName);
  }
}

/** A kind's plural name on one cluster; a kind that cluster does not serve is a 400 on `resources`. */
async function pluralOf(discovery: Discovery, name: string): Promise<string> {
  try {
    return (await discovery.resolve(name)).plural;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw validation(error.message, { fields: { resources: error.message } });
    throw error;
  }
}

function visibleTo(principal: Principal, object: AccessRequest): boolean {
  return ownsOrAdministers(principal, object.spec.requester);
}
