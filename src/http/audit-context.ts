import { AppError } from '../errors.js';
import type { AuditInput, AuditRecorder } from '../audit/types.js';
import type { AppContext } from './types.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface AuditContextDeps {
  audit: AuditRecorder;
}

/**
 * Audit fields taken from the request: user, source address, request id, and the cluster the request is
 * about (set by the route layer on routes declared `cluster: true`; absent on the others).
 */
export function requestAuditFields(context: AppContext): Pick<AuditInput, 'user' | 'source' | 'requestId' | 'cluster'> {
  const fields = { user: context.state.principal?.username ?? 'unknown', source: context.ip, requestId: context.state.requestId };
  const cluster = context.state.clusterName;
  return cluster === undefined ? fields : { ...fields, cluster };
}

/**
 * Runs a cluster-changing action and records it as `execute` with `details.command`
 * (the equivalent kubectl/helm line), with outcome success or the error message.
 * A refusal by the cluster (403) is recorded with decision deny. `target.cluster` names the cluster of an
 * object the action is about when the route itself is not cluster-facing (stopping a forward of cluster b).
 */
export async function audited<T>(
  deps: AuditContextDeps,
  context: AppContext,
  target: { resource: string; command: string; cluster?: string },
  action: () => Promise<T>,
): Promise<T> {
  const { resource, command } = target;
  const fields = target.cluster === undefined ? requestAuditFields(context) : { ...requestAuditFields(context), cluster: target.cluster };
  try {
    const result = await action();
    deps.audit.record({ ...fields, action: 'execute', resource, details: { command }, decision: 'allow', outcome: 'success' });
    return result;
  } catch (error) {
    const refused = error instanceof AppError && error.code === 'FORBIDDEN';
    const outcome = error instanceof Error ? error.message : String(error);
    deps.audit.record({
      ...fields,
      action: 'execute',
      resource,
      details: { command },
      decision: refused ? 'deny' : 'allow',
      outcome: `error: ${outcome}`,
    });
    throw error;
  }
}
