import type { AuditInput, AuditRecorder } from '../audit/types.js';
import type { Principal } from '../rbac/principal.js';

/** Who acts on an access request, with the audit fields of their HTTP request. */
export interface AccessActor {
  principal: Principal;
  audit: Pick<AuditInput, 'user' | 'source' | 'requestId' | 'cluster'>;
}

export type AccessEvent = 'requested' | 'approved' | 'denied' | 'withdrawn' | 'revoked';

/** Records one `access_request` audit entry (`details.event` names what happened; the row's `cluster` is the request's). */
export function recordAccessEvent(
  audit: AuditRecorder,
  actor: AccessActor,
  entry: { id: string; event: AccessEvent; cluster?: string; details?: Record<string, unknown>; refusal?: string },
): void {
  audit.record({
    ...actor.audit,
    cluster: entry.cluster ?? actor.audit.cluster,
    action: 'access_request',
    resource: `accessrequest/${entry.id}`,
    details: { event: entry.event, ...entry.details, ...(entry.refusal ? { reason: entry.refusal } : {}) },
    decision: entry.refusal ? 'deny' : 'allow',
    outcome: entry.refusal ? `refused: ${entry.refusal}` : 'success',
  });
}
