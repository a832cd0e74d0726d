import type { Principal } from './principal.js';
import { AppError } from '../errors.js';
import type { Permission } from './permissions.js';
import type { PolicyDecision } from './policy.js';
import type { RequestAttributes } from './request-attributes.js';

/** Checks whether a user holds an approved just-in-time grant covering an action (docs/adr/0007-just-in-time-access-grants.md). */
export type GrantCheck = (principal: Principal, action: { permission: Permission; resourceKind?: string; namespace?: string }) => boolean;

/**
 * The error for a refused policy decision: 401 without a principal, else 403 FORBIDDEN with
 * `details.reason` = the decision's code (`role`, `approval_required`, `resource_role`,
 * `own_namespace`, `discovery_failed`), the permission, and for cluster requests what was refused.
 */
export function refusal(decision: PolicyDecision, attributes?: RequestAttributes): AppError {
  if (decision.code === 'unauthenticated') return new AppError('UNAUTHORIZED', 'authentication required', {});
  const details: Record<string, unknown> = { reason: decision.code };
  if (decision.permission) details.permission = decision.permission;
  if (attributes?.isResourceRequest) {
    details.verb = decision.verb ?? attributes.verb;
    details.resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
    if (attributes.namespace) details.namespace = attributes.namespace;
  }
  return new AppError('FORBIDDEN', decision.reason, details);
}
