import { ApiError } from '../api/api-error.js';
import type { AccessScope, Shell } from '../core/shell.js';

/** The default lifetime offered for a just-in-time grant. */
export const defaultTtl = '1h';

/** Asks whether to file an access request, then its reason and TTL, and files it. */
async function offerAccessRequest(shell: Omit<Shell, 'write'>, error: ApiError, scope: AccessScope): Promise<boolean> {
  const permission = error.details.permission === 'delete' ? 'delete' : scope.permission;
  const where = scope.namespace ?? '*';
  if (!(await shell.confirm(shell.t('tui.access.offer', { permission, resource: scope.resource, namespace: where })))) return false;
  const reason = await shell.ask(shell.t('tui.access.reason'));
  if (reason === undefined) return false;
  const ttl = await shell.ask(shell.t('tui.access.ttl'), defaultTtl);
  if (ttl === undefined) return false;
  const request = await shell.api.requestAccess({
    permission,
    namespaces: scope.namespace ? [scope.namespace] : [],
    resources: [scope.resource.split('.')[0] ?? scope.resource],
    reason,
    ttl: ttl.trim() || defaultTtl,
  });
  shell.notice(shell.t('tui.access.filed', { id: request.id, phase: request.phase }));
  return true;
}

/**
 * Runs a write; when the server answers 403 approval_required, offers in place to file an access
 * request (reason, TTL) covering the namespace and kind, and files it (POST /api/access-requests).
 */
export async function writeWithApproval<T>(shell: Omit<Shell, 'write'>, work: () => Promise<T>, scope: AccessScope, filed: () => void): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    shell.report(error);
    if (!(error instanceof ApiError) || !error.approvalRequired) return undefined;
    try {
      if (await offerAccessRequest(shell, error, scope)) filed();
    } catch (failure) {
      shell.report(failure);
    }
    return undefined;
  }
}
