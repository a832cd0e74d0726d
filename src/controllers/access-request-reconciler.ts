import type { AccessRequestStore, StatusPatch } from '../access/access-request-store.js';
import { expiryOf, specProblem } from '../access/grant-rules.js';
import type { Clock } from '../clock.js';
import type { AccessRequest } from '../crds/access-request.js';
import { setCondition, type WantedCondition } from './conditions.js';
import { noEvents, type EventRecorder } from './events.js';
import { TerminalError, type Reconciler, type Result } from './reconciler.js';

/** The one condition of an AccessRequest (`kubectl wait --for=condition=Approved`). */
export const approvedCondition = 'Approved';

interface Plan {
  patch: StatusPatch;
  result: Result;
  /** Set for a spec that can never be approved: the pass ends with a TerminalError. */
  problem?: string;
}

/** The `Approved` condition a status reads as. */
function approvedFrom(status: NonNullable<AccessRequest['status']>, invalid: boolean): WantedCondition {
  const type = approvedCondition;
  switch (status.phase) {
    case 'Approved':
      return { type, status: 'True', reason: 'Approved', message: `approved by ${status.reviewer ?? 'a reviewer'} until ${status.expiresAt ?? 'its expiry'}` };
    case 'Denied':
      return { type, status: 'False', reason: invalid ? 'InvalidSpec' : 'Denied', message: status.message || `denied by ${status.reviewer ?? 'a reviewer'}` };
    case 'Expired':
      return { type, status: 'False', reason: 'Expired', message: status.message || 'the time-to-live ended' };
    default:
      return { type, status: 'Unknown', reason: 'Pending', message: 'waiting for a reviewer other than the requester' };
  }
}

/**
 * The status fields `kubectl get accessrequests` shows in its Cluster and Namespaces columns: the
 * cluster the grant holds on (`spec.cluster`, else the home cluster's name) and the namespaces
 * comma-separated (`*`: all), where the spec's own array would print as JSON.
 */
export function shownColumns(spec: AccessRequest['spec'], homeCluster: string): { cluster: string; namespaces: string } {
  return { cluster: spec.cluster ?? homeCluster, namespaces: spec.namespaces.length === 0 ? '*' : spec.namespaces.join(',') };
}

/**
 * Level-based AccessRequest reconciler: a new request (no status) becomes `Pending`; a request that
 * can never be approved (TTL zero, above 24h, or permission `delete`) becomes `Denied` with a message
 * (terminal); an approval gets `expiresAt = reviewedAt + ttl` and a requeue at that moment, when it
 * becomes `Expired`. Decisions themselves are written by the API (reviewer ≠ requester). Every pass
 * also keeps `status.conditions` (type `Approved`) in step with the phase and records an Event for
 * each transition, whoever wrote the phase, and the shown columns (shownColumns).
 */
export class AccessRequestReconciler implements Reconciler {
  readonly name = 'accessrequest';

  constructor(
    private readonly store: AccessRequestStore,
    private readonly clock: Clock,
    private readonly events: EventRecorder = noEvents,
    /** The home cluster's name (`cluster.name`): the Cluster column of requests without `spec.cluster`. */
    private readonly homeCluster = 'home',
  ) {}

  async reconcile(key: string): Promise<Result> {
    const object = await this.store.get(key);
    if (!object || object.metadata.deletionTimestamp) return {};
    const plan = this.withShownColumns(object, this.plan(object));
    await this.write(object, plan);
    if (plan.problem) throw new TerminalError(plan.problem);
    return plan.result;
  }

  /** The plan, plus the shown columns where the status does not have them yet (or has them for another spec). */
  private withShownColumns(object: AccessRequest, plan: Plan): Plan {
    const shown = shownColumns(object.spec, this.homeCluster);
    const patch = { ...plan.patch };
    if (object.status?.cluster !== shown.cluster) patch.cluster = shown.cluster;
    if (object.status?.namespaces !== shown.namespaces) patch.namespaces = shown.namespaces;
    return { ...plan, patch };
  }

  private plan(object: AccessRequest): Plan {
    const phase = object.status?.phase;
    if (phase === undefined || phase === 'Pending') return this.undecided(object);
    if (phase === 'Approved') return this.approved(object);
    return { patch: {}, result: {} };
  }

  private undecided(object: AccessRequest): Plan {
    const problem = specProblem(object.spec);
    if (problem) return { patch: { phase: 'Denied', message: `invalid request: ${problem}` }, result: {}, problem };
    return { patch: object.status?.phase === 'Pending' ? {} : { phase: 'Pending' }, result: {} };
  }

  private approved(object: AccessRequest): Plan {
    const status = object.status ?? {};
    const reviewedAt = status.reviewedAt ?? new Date(this.clock()).toISOString();
    const expiresAt = status.expiresAt ?? expiryOf(object.spec, reviewedAt);
    const remaining = Date.parse(expiresAt) - this.clock();
    if (remaining <= 0) return { patch: { phase: 'Expired', reviewedAt, expiresAt, message: 'the time-to-live ended' }, result: {} };
    const patch: StatusPatch = !status.expiresAt || !status.reviewedAt ? { reviewedAt, expiresAt } : {};
    return { patch, result: { requeueAfter: remaining } };
  }

  /** Writes the phase change and the condition it implies (only when something changed), then the Event. */
  private async write(object: AccessRequest, plan: Plan): Promise<void> {
    const next = { ...object.status, ...plan.patch } as NonNullable<AccessRequest['status']>;
    const invalid = plan.problem !== undefined || (next.message ?? '').startsWith('invalid request:');
    const wanted = approvedFrom(next, invalid);
    const update = setCondition(object.status?.conditions, wanted, object.metadata.generation, new Date(this.clock()).toISOString());
    if (Object.keys(plan.patch).length === 0 && !update.changed) return;
    const written = await this.store.patchStatus(object, { ...plan.patch, conditions: update.conditions });
    if (!update.transition) return;
    const type = wanted.reason === 'InvalidSpec' ? 'Warning' : 'Normal';
    await this.events.record({ kind: 'AccessRequest', metadata: written.metadata }, { type, reason: wanted.reason, action: 'Reconcile', note: wanted.message });
  }
}
