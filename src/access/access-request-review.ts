import type { AuditRecorder } from '../audit/types.js';
import type { Clock } from '../clock.js';
import type { AccessRequest } from '../crds/access-request.js';
import { AppError, forbidden, notFound, validation } from '../errors.js';
import type { AccessRequestStore } from './access-request-store.js';
import { recordAccessEvent, type AccessActor } from './access-request-audit.js';
import { clusterOfGrant, currentPhase, expiryOf, specProblem } from './grant-rules.js';

export type Decision = 'approved' | 'denied';

/** A status write lost a race with another writer (the reconciler, another reviewer). */
function isConflict(error: unknown): boolean {
  return error instanceof AppError && error.details.status === 409;
}

/**
 * Approves or denies a Pending request: only a Pending request can be decided (400), an approval
 * needs a reviewer other than the requester (403, audited as deny) and a spec that can work (400).
 */
export class AccessRequestReview {
  constructor(
    private readonly store: AccessRequestStore,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
    /** The cluster of requests without `spec.cluster` (audit rows name the request's cluster). */
    private readonly homeCluster: string,
  ) {}

  /** Writes the decision; retried once when the object changed underneath (409). */
  async decide(actor: AccessActor, id: string, decision: Decision, comment?: string): Promise<AccessRequest> {
    for (let attempt = 1; ; attempt += 1) {
      const object = await this.store.get(id);
      if (!object) throw notFound(`access request ${id} not found`, { id });
      this.check(actor, object, decision);
      try {
        const written = await this.store.patchStatus(object, this.statusOf(actor, object, decision, comment));
        recordAccessEvent(this.audit, actor, {
          id,
          event: decision,
          cluster: clusterOfGrant(object.spec, this.homeCluster),
          details: { reviewer: actor.principal.username, requester: object.spec.requester, comment },
        });
        return written;
      } catch (error) {
        if (!isConflict(error) || attempt >= 3) throw error;
      }
    }
  }

  private check(actor: AccessActor, object: AccessRequest, decision: Decision): void {
    const id = object.metadata.name;
    const phase = currentPhase(object, this.clock());
    if (phase !== 'Pending') throw validation(`access request ${id} is ${phase}; only a Pending request can be ${decision}`, { id, phase });
    if (decision === 'denied') return;
    if (object.spec.requester === actor.principal.username) {
      const cluster = clusterOfGrant(object.spec, this.homeCluster);
      recordAccessEvent(this.audit, actor, { id, event: decision, cluster, details: { reviewer: actor.principal.username }, refusal: 'self_approval' });
      throw forbidden('a reviewer cannot approve their own access request', { reason: 'self_approval', id });
    }
    const problem = specProblem(object.spec);
    if (problem) throw validation(`access request ${id} cannot be approved: ${problem}`, { id });
  }

  private statusOf(actor: AccessActor, object: AccessRequest, decision: Decision, comment?: string): Record<string, string | null> {
    const reviewedAt = new Date(this.clock()).toISOString();
    const expiresAt = decision === 'approved' ? expiryOf(object.spec, reviewedAt) : null;
    const phase = decision === 'approved' ? 'Approved' : 'Denied';
    return { phase, reviewer: actor.principal.username, reviewedAt, expiresAt, message: comment ?? null };
  }
}
