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
import type { AccessPhase } from './grant-rules.js';
import { GrantWatch } from './grant-watch.js';

export interface AccessRequestsOptions {
  rest: RestClient;
  namespace: string;
  discovery: Discovery;
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

  constructor(private readonly options: AccessRequestsOptions) {
    this.store = new AccessRequestStore(options.rest, options.namespace);
    this.index = new GrantIndex(options.clock);
    this.watch = new GrantWatch(this.store.client, this.index, options.logger);
    this.review = new AccessRequestReview(this.store, options.audit, options.clock);
  }

  /** Whether a principal holds an approved, unexpired grant covering an action. */
  get grantCheck(): GrantCheck {
    return this.index.check;
  }

  /** Starts the watch feeding the grant index (every replica). */
  start(): void {
    this.watch.start();
  }

  stop(): void {
    this.watch.stop();
  }

  /** Files a request for the caller; viewers are refused (a grant never lifts the viewer role). */
  async create(actor: AccessActor, input: CreateAccessRequest): Promise<AccessRequestView> {
    if (actor.principal.role === 'viewer') {
      recordAccessEvent(this.options.audit, actor, { id: '-', event: 'requested', details: { permission: input.permission }, refusal: 'role' });
      throw forbidden('role viewer cannot be granted write access; ask an admin for the user role', { reason: 'role' });
    }
    if (input.permission === 'delete')
      throw validation('permission "delete" cannot be requested: delete is admin-only; ask for execute_write', {
        fields: { permission: 'delete is admin-only' },
      });
    const resources = await this.canonicalResources(input.resources);
    const spec = { ...input, requester: actor.principal.username, namespaces: [...new Set(input.namespaces)], resources };
    const object = await this.store.create(spec);
    this.index.upsert(object);
    const { requester, permission, namespaces, reason, ttl } = spec;
    recordAccessEvent(this.options.audit, actor, {
      id: object.metadata.name,
      event: 'requested',
      details: { requester, permission, namespaces, resources, reason, ttl },
    });
    return this.view(object);
  }

  /** The caller's requests (every request for admins), newest first, optionally of one phase. */
  async list(principal: Principal, phase?: AccessPhase): Promise<AccessRequestView[]> {
    const views = (await this.store.list()).filter((object) => visibleTo(principal, object)).map((object) => this.view(object));
    return views.filter((view) => !phase || view.phase === phase).sort((left, right) => (right.createdAt ?? '').localeCompare(left.createdAt ?? ''));
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
    recordAccessEvent(this.options.audit, actor, { id, event, details: { requester: object.spec.requester, phase } });
    return { id, event, phase };
  }

  private async visible(principal: Principal, id: string): Promise<AccessRequest> {
    const object = await this.store.get(id);
    if (!object || !visibleTo(principal, object)) throw notFound(`access request ${id} not found`, { id });
    return object;
  }

  /** Resource names as the cluster's plural names (`deploy` → `deployments`); `*` stays. */
  private async canonicalResources(resources: readonly string[]): Promise<string[]> {
    const names = await Promise.all(resources.map((name) => (name === '*' ? '*' : this.pluralOf(name))));
    return [...new Set(names)];
  }

  private async pluralOf(name: string): Promise<string> {
    try {
      return (await this.options.discovery.resolve(name)).plural;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') throw validation(error.message, { fields: { resources: error.message } });
      throw error;
    }
  }

  private view(object: AccessRequest): AccessRequestView {
    return accessRequestView(object, this.options.clock());
  }
}

function visibleTo(principal: Principal, object: AccessRequest): boolean {
  return ownsOrAdministers(principal, object.spec.requester);
}
