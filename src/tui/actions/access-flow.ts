import { ApiError } from '@pilothouse/wire/wire-client';
import type { AccessRequest } from '../api/types.js';
import type { AccessScope, Shell } from '../core/shell.js';

/** The default lifetime offered for a just-in-time grant. */
export const defaultTtl = '1h';

/** What an access request asks for (`POST /api/access-requests`); empty lists mean all. */
export interface AccessRequestScope {
  permission: 'execute_write' | 'delete';
  namespaces: string[];
  resources: string[];
}

/**
 * Asks whether to file an access request for `scope` (naming it), then its reason and TTL, and
 * files it; undefined when the user said no or cancelled a prompt.
 */
export async function fileAccessRequest(shell: Omit<Shell, 'write'>, scope: AccessRequestScope): Promise<AccessRequest | undefined> {
  const list = (items: string[]): string => (items.length ? items.join(', ') : '*');
  const question = shell.t('tui.access.offer', { permission: scope.permission, resource: list(scope.resources), namespace: list(scope.namespaces) });
  if (!(await shell.confirm(question))) return undefined;
  const reason = await shell.ask(shell.t('tui.access.reason'));
  if (reason === undefined) return undefined;
  const ttl = await shell.ask(shell.t('tui.access.ttl'), defaultTtl);
  if (ttl === undefined) return undefined;
  const request = await shell.api.requestAccess({ ...scope, reason, ttl: ttl.trim() || defaultTtl });
  shell.notice(shell.t('tui.access.filed', { id: request.id, phase: request.phase }));
  return request;
}

/** Offers the access request a refused direct write needs (the namespace and kind it acted on). */
async function offerAccessRequest(shell: Omit<Shell, 'write'>, error: ApiError, scope: AccessScope): Promise<boolean> {
  const permission = error.details.permission === 'delete' ? 'delete' : scope.permission;
  const resources = [scope.resource.split('.')[0] ?? scope.resource];
  const request = await fileAccessRequest(shell, { permission, namespaces: scope.namespace ? [scope.namespace] : [], resources });
  return request !== undefined;
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
