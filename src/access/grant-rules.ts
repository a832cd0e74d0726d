import { parseDuration } from '../config/duration.js';
import type { AccessRequest } from '../crds/access-request.js';
import type { Permission } from '../rbac/permissions.js';

/** The longest time-to-live a grant may have. */
export const maxTtlMs = 24 * 3_600_000;

export type AccessPhase = 'Pending' | 'Approved' | 'Denied' | 'Expired';
export type AccessSpec = AccessRequest['spec'];

/** What a guarded action asks for (the GrantCheck's second argument). */
export interface GrantedAction {
  permission: Permission;
  resourceKind?: string;
  namespace?: string;
}

/** Why a TTL can never work, or undefined when it is fine (a positive duration up to 24h). */
export function ttlProblem(ttl: string): string | undefined {
  const milliseconds = parseDuration(ttl);
  if (milliseconds === undefined) return `ttl "${ttl}" is not a duration such as 30m or 2h`;
  if (milliseconds <= 0) return `ttl "${ttl}" must be longer than zero`;
  if (milliseconds > maxTtlMs) return `ttl "${ttl}" is longer than the maximum of 24h`;
  return undefined;
}

/**
 * Why a request can never be approved, or undefined. `delete` stays admin-only (the permission
 * matrix gives role user no `approval` entry for it), so a delete grant would never be used.
 */
export function specProblem(spec: AccessSpec): string | undefined {
  if (spec.permission === 'delete') return 'permission "delete" cannot be granted: delete is admin-only; ask for execute_write';
  return ttlProblem(spec.ttl);
}

/** When a grant approved at `reviewedAt` ends (ISO 8601 UTC). */
export function expiryOf(spec: AccessSpec, reviewedAt: string): string {
  return new Date(Date.parse(reviewedAt) + (parseDuration(spec.ttl) ?? 0)).toISOString();
}

/** The phase as seen at `now`: no status yet is Pending; an approval past its expiry is Expired. */
export function currentPhase(object: AccessRequest, now: number): AccessPhase {
  const status = object.status ?? {};
  const phase = status.phase ?? 'Pending';
  if (phase === 'Approved' && status.expiresAt && Date.parse(status.expiresAt) <= now) return 'Expired';
  return phase;
}

/** The cluster a request's grant holds on: `spec.cluster`, else the home cluster (ADR 0035). */
export function clusterOfGrant(spec: AccessSpec, homeCluster: string): string {
  return spec.cluster ?? homeCluster;
}

/** A name without its API group, lowercase (`Deployments.apps` → `deployments`). */
function bareName(name: string): string {
  return name.toLowerCase().split('.')[0] ?? '';
}

/** Whether a list names `value`; an empty list or `*` covers everything. */
function listCovers(list: readonly string[], value: string | undefined): boolean {
  if (list.length === 0 || list.includes('*')) return true;
  return value !== undefined && list.some((entry) => bareName(entry) === bareName(value));
}

/** Whether an approved, unexpired, independently reviewed grant covers the action. */
export function grantCovers(object: AccessRequest, action: GrantedAction, now: number): boolean {
  const { spec, status } = object;
  if (!status?.expiresAt || currentPhase(object, now) !== 'Approved') return false;
  if (!status.reviewer || status.reviewer === spec.requester) return false;
  if (spec.permission !== action.permission || specProblem(spec)) return false;
  return listCovers(spec.namespaces, action.namespace) && listCovers(spec.resources, action.resourceKind);
}
