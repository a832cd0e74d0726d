import type { Principal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import { permissionMatrix, type Permission } from './permissions.js';

/** Checks whether a user holds an approved just-in-time grant covering an action (access requests issue). */
export type GrantCheck = (principal: Principal, action: { permission: Permission; resourceKind?: string; namespace?: string }) => boolean;

export interface AuthorizationDecision {
  allowed: boolean;
  reason?: 'role' | 'approval_required' | 'unauthenticated';
}

/** The permission-matrix decision for a principal (resource-level roles are applied by the caller). */
export function decide(
  principal: Principal | undefined,
  permission: Permission,
  hasGrant: GrantCheck,
  target: { resourceKind?: string; namespace?: string } = {},
): AuthorizationDecision {
  if (permission === 'public') return { allowed: true };
  if (!principal) return { allowed: false, reason: 'unauthenticated' };
  const entry = permissionMatrix[permission][principal.role];
  if (entry === 'yes') return { allowed: true };
  if (entry === 'approval') {
    return hasGrant(principal, { permission, ...target }) ? { allowed: true } : { allowed: false, reason: 'approval_required' };
  }
  return { allowed: false, reason: 'role' };
}

/** The error for a refused decision. */
export function refusal(decision: AuthorizationDecision, permission: Permission): AppError {
  if (decision.reason === 'unauthenticated') return new AppError('UNAUTHORIZED', 'authentication required', {});
  if (decision.reason === 'approval_required') {
    return new AppError('FORBIDDEN', 'this action needs an approved access request', { reason: 'approval_required', permission });
  }
  return new AppError('FORBIDDEN', `your role may not ${permission.replace('_', ' ')}`, { reason: 'role', permission });
}
