import type { Principal } from './principal.js';
import type { ResourceRole } from '../config/schema.js';
import { permissionMatrix, type Permission } from './permissions.js';
import type { RequestAttributes } from './request-attributes.js';
import { deniedNamespaces, effectiveRoles, evaluateRoles, type ResourceVerb } from './resource-roles.js';

/**
 * Who is asking, and how far a human stands behind the request:
 * - `read`: an AI tool call that ran without a human's approval: reads, access reviews and
 *   server-side dry runs only;
 * - `approved`: an AI tool call a human approved in the chat: the role and the policy decide
 *   (for role `user` the approval stands in for the matrix's `approval` entries);
 * - `direct`: a person's own request (HTTP routes, MCP server mode): the matrix, where `approval`
 *   entries need an approved just-in-time access request.
 */
export type PolicyMode = 'read' | 'approved' | 'direct';

export type PolicyCode = 'allowed' | 'unauthenticated' | 'read_only' | 'role' | 'approval_required' | 'resource_role' | 'own_namespace' | 'discovery_failed';

export interface PolicyDecision {
  allowed: boolean;
  /** One sentence a person or a model can read. */
  reason: string;
  code: PolicyCode;
  /** The matrix permission the request needs (absent for access reviews and discovery). */
  permission?: Permission;
  /**
   * For allowed lists and watches across all namespaces: namespaces whose objects the caller may
   * not see. Callers that can filter (HTTP lists) leave them out; callers that cannot refuse.
   */
  hiddenNamespaces?: ReadonlySet<string>;
}

/** What the decision needs to know besides the request (resolved by the PolicyEngine). */
export interface PolicyFacts {
  /** Resource-level role definitions (`authorization.roles`). */
  definitions: readonly ResourceRole[];
  /**
   * Every name the resource goes by, lowercase (plural, `plural.group`, singular, kind, short
   * names); undefined when discovery failed: resource-level roles then fail closed.
   */
  names: readonly string[] | undefined;
  /** Whether an approved just-in-time grant covers the permission for this resource and namespace. */
  hasGrant(permission: Permission): boolean;
  /** Pilothouse's own namespace (its Secrets, config, Lease, CRD objects, pods). */
  ownNamespace: string;
}

const readVerbs = new Set(['get', 'list', 'watch']);
/** Subresources that run code in, or open a tunnel to, a pod (or node/service proxy). */
const interactiveSubresources = new Set(['exec', 'attach', 'portforward', 'proxy']);
/** Access reviews every signed-in caller may send (`kubectl auth can-i`, `kubectl auth whoami`). */
const selfReviews = new Set([
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  'authentication.k8s.io/selfsubjectreviews',
]);
/** Non-resource paths anyone signed in may read: discovery, version, OpenAPI, health. */
const publicPaths = [/^\/api(\/[^/]+)?\/?$/, /^\/apis(\/[^/]+){0,2}\/?$/, /^\/version\/?$/, /^\/openapi(\/.*)?$/, /^\/(healthz|livez|readyz)(\/.*)?$/];
/** Resources of Pilothouse's own namespace that only admins may touch at all. */
const closedInOwnNamespace = new Set(['secrets', 'configmaps', 'leases', 'serviceaccounts']);

const allow = (permission?: Permission): PolicyDecision => ({ allowed: true, reason: 'allowed', code: 'allowed', permission });
const deny = (code: PolicyCode, reason: string, permission?: Permission): PolicyDecision => ({ allowed: false, reason, code, permission });

/** `create pods/exec in namespace x`: how a refusal names the request. */
export function describeRequest(attributes: RequestAttributes): string {
  if (!attributes.isResourceRequest) return `${attributes.verb.toUpperCase()} ${attributes.path}`;
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const name = attributes.name ? ` ${attributes.name}` : '';
  const where = attributes.namespace && attributes.resource !== 'namespaces' ? ` in namespace ${attributes.namespace}` : '';
  return `${attributes.verb} ${resource}${name}${where}`;
}

/** The matrix permission a request needs. Server-side dry runs persist nothing: they are reads. */
export function permissionFor(attributes: RequestAttributes): Permission {
  if (interactiveSubresources.has(attributes.subresource)) return 'execute_write';
  if (readVerbs.has(attributes.verb) || attributes.dryRun) return attributes.subresource === 'log' ? 'view_logs' : 'view';
  if (attributes.verb === 'delete' || attributes.verb === 'deletecollection') return 'delete';
  return 'execute_write';
}

/** The verb resource-level roles speak of (the contract's verbs; actions on pods count as update). */
export function resourceVerbOf(attributes: RequestAttributes): ResourceVerb {
  if (interactiveSubresources.has(attributes.subresource)) return 'update';
  if (attributes.verb === 'deletecollection') return 'delete';
  const known: readonly ResourceVerb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
  return known.find((verb) => verb === attributes.verb) ?? 'update';
}

function nonResourceDecision(principal: Principal, attributes: RequestAttributes, mode: PolicyMode): PolicyDecision {
  const isRead = attributes.verb === 'get' || attributes.verb === 'head';
  if (isRead && publicPaths.some((pattern) => pattern.test(attributes.path))) return allow();
  if (mode !== 'read' && principal.role === 'admin') return allow();
  return deny('role', `${describeRequest(attributes)} is not a resource request Pilothouse lets role ${principal.role} make`);
}

/** The own-namespace rule: only admins touch Pilothouse's Secrets, config, Lease, service accounts, pod shells, or write its objects. */
function ownNamespaceDecision(principal: Principal, attributes: RequestAttributes, permission: Permission, ownNamespace: string): PolicyDecision | undefined {
  if (principal.role === 'admin' || attributes.namespace === '' || attributes.namespace !== ownNamespace) return undefined;
  const closed = closedInOwnNamespace.has(attributes.resource) || permission !== 'view';
  if (!closed) return undefined;
  return deny('own_namespace', `${describeRequest(attributes)} is refused: Pilothouse's own namespace is closed to every role but admin`, permission);
}

function matrixDecision(principal: Principal, permission: Permission, mode: PolicyMode, hasGrant: (permission: Permission) => boolean): PolicyDecision {
  const entry = permissionMatrix[permission][principal.role];
  if (entry === 'yes') return allow(permission);
  if (entry === 'approval' && (mode === 'approved' || hasGrant(permission))) return allow(permission);
  if (entry === 'approval')
    return deny('approval_required', `role ${principal.role} needs an approved access request to ${permission.replace('_', ' ')}`, permission);
  return deny('role', `role ${principal.role} may not ${permission.replace('_', ' ')}`, permission);
}

/** Matrix permissions that resource-level allow roles may extend. */
const extendable: ReadonlySet<Permission> = new Set<Permission>(['view', 'view_logs', 'execute_write', 'delete']);

function resourceRoleDecision(principal: Principal, attributes: RequestAttributes, matrix: PolicyDecision, facts: PolicyFacts): PolicyDecision {
  const roles = effectiveRoles(facts.definitions, principal.role, principal.roles);
  if (roles.length === 0) return matrix;
  const what = describeRequest(attributes);
  if (!facts.names)
    return deny('discovery_failed', `${what} is refused: the resource's names could not be resolved, and resource-level roles apply`, matrix.permission);
  const verb = resourceVerbOf(attributes);
  const target = { names: facts.names, verb, namespace: attributes.namespace || undefined };
  const allNamespaces = attributes.namespace === '' && (verb === 'list' || verb === 'watch');
  if (allNamespaces) return allNamespacesDecision(roles, target, matrix, what);
  return objectDecision(evaluateRoles(roles, target), matrix, what);
}

/** A deny refuses; an allow extends what the matrix refused (for extendable permissions). */
function objectDecision(verdict: 'allow' | 'deny' | 'none', matrix: PolicyDecision, what: string): PolicyDecision {
  if (verdict === 'deny') return deny('resource_role', `a resource-level role denies ${what}`, matrix.permission);
  if (verdict === 'allow' && !matrix.allowed && extendable.has(matrix.permission ?? 'admin')) return allow(matrix.permission);
  return matrix;
}

function allNamespacesDecision(
  roles: ReturnType<typeof effectiveRoles>,
  target: { names: readonly string[]; verb: ResourceVerb },
  matrix: PolicyDecision,
  what: string,
): PolicyDecision {
  const denied = deniedNamespaces(roles, target);
  if (denied.all) return deny('resource_role', `a resource-level role denies ${what}`, matrix.permission);
  if (!matrix.allowed || denied.namespaces.size === 0) return matrix;
  return { ...matrix, hiddenNamespaces: denied.namespaces };
}

function withOwnNamespaceHidden(decision: PolicyDecision, principal: Principal, attributes: RequestAttributes, ownNamespace: string): PolicyDecision {
  const listsEverywhere = attributes.namespace === '' && (attributes.verb === 'list' || attributes.verb === 'watch');
  if (!decision.allowed || !listsEverywhere || principal.role === 'admin' || !closedInOwnNamespace.has(attributes.resource)) return decision;
  return { ...decision, hiddenNamespaces: new Set([...(decision.hiddenNamespaces ?? []), ownNamespace]) };
}

function readModeDecision(principal: Principal, attributes: RequestAttributes, permission: Permission): PolicyDecision | undefined {
  if (permission === 'view' || permission === 'view_logs') return undefined;
  return deny('read_only', `this command ran as read-only and tried to ${describeRequest(attributes)}; it needs approval`, permission);
}

/**
 * The one authorization decision of Pilothouse, pure: the permission matrix by role, the mode of
 * the call, Pilothouse's own namespace, just-in-time grants and resource-level roles (a deny
 * overrides every allow). HTTP routes, the AI tools (through the policy proxy), MCP server mode,
 * helm and reports all call it with the request's attributes.
 */
export function decide(principal: Principal | undefined, attributes: RequestAttributes, mode: PolicyMode, facts: PolicyFacts): PolicyDecision {
  if (!principal) return deny('unauthenticated', 'authentication required');
  if (mode !== 'direct' && principal.role === 'viewer') return deny('role', 'role viewer may not run tools');
  if (!attributes.isResourceRequest) return nonResourceDecision(principal, attributes, mode);
  if (selfReviews.has(`${attributes.apiGroup}/${attributes.resource}`) && attributes.verb === 'create') return allow();
  const permission = permissionFor(attributes);
  if (mode === 'read') {
    const refused = readModeDecision(principal, attributes, permission);
    if (refused) return refused;
  }
  const closed = ownNamespaceDecision(principal, attributes, permission, facts.ownNamespace);
  if (closed) return closed;
  const matrix = matrixDecision(principal, permission, mode, facts.hasGrant);
  const decision = resourceRoleDecision(principal, attributes, matrix, facts);
  return withOwnNamespaceHidden(decision, principal, attributes, facts.ownNamespace);
}

/**
 * The matrix alone, for what is no cluster request (chat, users, audit, settings, helm
 * repositories): the same matrix `decide` applies, with grants standing in for `approval`.
 */
export function decidePermission(principal: Principal | undefined, permission: Permission, hasGrant: (permission: Permission) => boolean): PolicyDecision {
  if (permission === 'public') return allow(permission);
  if (!principal) return deny('unauthenticated', 'authentication required');
  return matrixDecision(principal, permission, 'direct', hasGrant);
}
