import type { Principal } from '../../rbac/principal.js';
import { ownsOrAdministers } from '../../rbac/ownership.js';
import { notFound, validation } from '../../errors.js';
import type { ApprovalOutcome } from '../history/history-entries.js';
import type { Scheduler } from './scheduler.js';

/** A tool call waiting for its owner's decision. */
export interface ApprovalRequest {
  id: string;
  /** Username owning the chat session: they (or an admin) decide. */
  owner: string;
  sessionId: string;
  /** The cluster the call goes to (kubectl and bash; absent for tools that reach no cluster): the decision's audit row names it. */
  cluster?: string;
}

/** The request's own fields (the pending entry also holds its settle function). */
function requestOf(request: ApprovalRequest): ApprovalRequest {
  const { id, owner, sessionId, cluster } = request;
  return cluster === undefined ? { id, owner, sessionId } : { id, owner, sessionId, cluster };
}

/** How a wait ended, and who decided (for approved/rejected). */
export interface ApprovalResult {
  outcome: ApprovalOutcome;
  by?: string;
}

/** Tool calls waiting for a decision: {@link ApprovalRegistry} on one replica, `SharedApprovals` across replicas. */
export interface Approvals {
  /** True when the id is pending or was decided recently (ids must be unique). */
  knows(id: string): boolean;
  /** Makes the request decidable wherever it is decided; resolves before the `tool_request` event goes out. */
  register(request: ApprovalRequest): Promise<void>;
  /** Waits for a decision; never rejects. An aborted signal ends the wait as `cancelled`. */
  wait(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResult>;
  /** Records a decision: NOT_FOUND for unknown ids or someone else's call, VALIDATION_ERROR when already decided. */
  decide(principal: Principal, id: string, approved: boolean): ApprovalRequest | Promise<ApprovalRequest>;
  /** Ids waiting for a decision here. */
  pendingIds(): string[];
  /** Background work of the shared kind (heartbeat, LISTEN), started with the service. */
  start?(): void;
  stop?(): void;
}

interface Pending extends ApprovalRequest {
  settle(result: ApprovalResult): void;
}

/** How many decided ids are remembered, so a second decision answers 400 rather than 404. */
const decidedMemory = 10_000;

function mayDecide(principal: Principal, owner: string): boolean {
  return ownsOrAdministers(principal, owner);
}

/**
 * Pending approvals of tool calls (the agent's WaitingForApproval state, docs/adr/0006-agent-loop-from-history.md). A wait ends with the
 * owner's decision, the timeout (`authorization.tool_approval.timeout`) or the turn's cancellation.
 */
export class ApprovalRegistry implements Approvals {
  private readonly pending = new Map<string, Pending>();
  private readonly decided = new Map<string, string>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly timeoutMs: number,
    /** Sees each request and how it ended (the service's metrics). */
    private readonly observe: (outcome: ApprovalOutcome | 'requested') => void = () => undefined,
  ) {}

  /** True when the id is pending or was decided recently (ids must be unique). */
  knows(id: string): boolean {
    return this.pending.has(id) || this.decided.has(id);
  }

  /** Pending waits live in this process: nothing to store first. */
  register(): Promise<void> {
    return Promise.resolve();
  }

  /** Waits for a decision; never rejects. An aborted signal ends the wait as `cancelled`. */
  wait(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResult> {
    if (signal?.aborted) return Promise.resolve({ outcome: 'cancelled' });
    return new Promise<ApprovalResult>((resolve) => {
      const onAbort = (): void => settle({ outcome: 'cancelled' });
      const cancelTimer = this.scheduler.schedule(this.timeoutMs, () => settle({ outcome: 'timeout' }));
      const settle = (result: ApprovalResult): void => {
        if (!this.pending.delete(request.id)) return;
        cancelTimer();
        signal?.removeEventListener('abort', onAbort);
        this.remember(request.id, request.owner);
        this.observe(result.outcome);
        resolve(result);
      };
      this.pending.set(request.id, { ...request, settle });
      this.observe('requested');
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Records a decision. Unknown ids, and ids of someone else's session (unless admin), are
   * NOT_FOUND; an id already decided (or timed out) is VALIDATION_ERROR.
   */
  decide(principal: Principal, id: string, approved: boolean): ApprovalRequest {
    const request = this.pending.get(id);
    if (request && mayDecide(principal, request.owner)) {
      request.settle({ outcome: approved ? 'approved' : 'rejected', by: principal.username });
      return requestOf(request);
    }
    const owner = this.decided.get(id);
    if (owner !== undefined && mayDecide(principal, owner)) throw validation(`tool call ${id} was already decided`, { id });
    throw notFound(`no pending tool call ${id}`, { id });
  }

  /** Ends a pending wait with a decision made elsewhere (another replica; its rights were checked there); false when not pending. */
  resolve(id: string, result: ApprovalResult): boolean {
    const request = this.pending.get(id);
    request?.settle(result);
    return request !== undefined;
  }

  /** The pending request of an id (its owner and session), if waiting here. */
  pendingRequest(id: string): ApprovalRequest | undefined {
    const request = this.pending.get(id);
    return request && requestOf(request);
  }

  /** Ids waiting for a decision. */
  pendingIds(): string[] {
    return [...this.pending.keys()];
  }

  private remember(id: string, owner: string): void {
    this.decided.set(id, owner);
    if (this.decided.size <= decidedMemory) return;
    const oldest = this.decided.keys().next().value;
    if (oldest !== undefined) this.decided.delete(oldest);
  }
}
