import type { AccessRequestStore } from '../access/access-request-store.js';
import { expiryOf, specProblem } from '../access/grant-rules.js';
import type { Clock } from '../clock.js';
import type { AccessRequest } from '../crds/access-request.js';
import { TerminalError, type Reconciler, type Result } from './reconciler.js';

/**
 * Level-based AccessRequest reconciler: a new request (no status) becomes `Pending`; a request that
 * can never be approved (TTL zero, above 24h, or permission `delete`) becomes `Denied` with a message
 * (terminal); an approval gets `expiresAt = reviewedAt + ttl` and a requeue at that moment, when it
 * becomes `Expired`. Decisions themselves are written by the API (reviewer ≠ requester).
 */
export class AccessRequestReconciler implements Reconciler {
  readonly name = 'accessrequest';

  constructor(
    private readonly store: AccessRequestStore,
    private readonly clock: Clock,
  ) {}

  async reconcile(key: string): Promise<Result> {
    const object = await this.store.get(key);
    if (!object || object.metadata.deletionTimestamp) return {};
    const phase = object.status?.phase;
    if (phase === undefined || phase === 'Pending') return this.undecided(object);
    if (phase === 'Approved') return this.approved(object);
    return {};
  }

  private async undecided(object: AccessRequest): Promise<Result> {
    const problem = specProblem(object.spec);
    if (problem) {
      await this.store.patchStatus(object, { phase: 'Denied', message: `invalid request: ${problem}` });
      throw new TerminalError(problem);
    }
    if (object.status?.phase !== 'Pending') await this.store.patchStatus(object, { phase: 'Pending' });
    return {};
  }

  private async approved(object: AccessRequest): Promise<Result> {
    const status = object.status ?? {};
    const reviewedAt = status.reviewedAt ?? new Date(this.clock()).toISOString();
    const expiresAt = status.expiresAt ?? expiryOf(object.spec, reviewedAt);
    const remaining = Date.parse(expiresAt) - this.clock();
    if (remaining <= 0) {
      await this.store.patchStatus(object, { phase: 'Expired', reviewedAt, expiresAt, message: 'the time-to-live ended' });
      return {};
    }
    if (!status.expiresAt || !status.reviewedAt) await this.store.patchStatus(object, { reviewedAt, expiresAt });
    return { requeueAfter: remaining };
  }
}
