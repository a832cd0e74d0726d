import { AppError } from '../errors.js';
import { conflictsOf } from './apply-conflicts.js';

interface StatusBody {
  message?: string;
  reason?: string;
  details?: unknown;
}

/** Maps an API server failure to the contract's error codes, keeping the server's message in details. */
export function mapKubeError(status: number, body: unknown, target: string): AppError {
  const statusBody = (body && typeof body === 'object' ? body : {}) as StatusBody;
  const message = statusBody.message ?? `cluster returned HTTP ${status}`;
  const details = { status, reason: statusBody.reason, message, target };
  if (status === 404) return new AppError('NOT_FOUND', `${target} not found`, details);
  if (status === 403) return new AppError('FORBIDDEN', `the cluster refused: ${message}`, details);
  if (status === 401) return new AppError('K8S_ERROR', 'the cluster rejected our credentials', details);
  if (status === 409) return conflictError(message, details, body);
  if (status === 422 || status === 400) {
    return new AppError('VALIDATION_ERROR', message, details);
  }
  return new AppError('K8S_ERROR', message, details);
}

/**
 * A network-level failure reaching the API server; `details.transport` is the failure's code when it has
 * one (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`: taken but not answered in time).
 */
export function connectionError(error: unknown): AppError {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const reason = cause ? cause.message : error instanceof Error ? error.message : String(error);
  const transport = (cause as { code?: unknown } | undefined)?.code;
  return new AppError('K8S_ERROR', 'cannot reach the Kubernetes API server', { reason, ...(typeof transport === 'string' ? { transport } : {}) });
}

/**
 * Every 409 of the API server (already exists, changed since it was read, fields another manager
 * owns on apply) is CONFLICT, mapped here once: `details.reason` `conflict`, the server's own reason
 * in `details.kubeReason`, and `details.conflicts` `[{field, manager, message}]` (empty unless an
 * apply met another field manager).
 */
function conflictError(message: string, details: Record<string, unknown>, body: unknown): AppError {
  return new AppError('CONFLICT', message, { ...details, reason: 'conflict', kubeReason: details.reason, conflicts: conflictsOf(body) });
}
