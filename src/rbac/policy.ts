import type { Principal } from './principal.js';
import type { ResourceRole } from '../config/schema.js';
import { honoursDryRun } from './dry-run-table.js';
import { permissionMatrix, type Permission } from './permissions.js';
import type { RequestAttributes } from './request-attributes.js';
import { deniedNamespaces, effectiveRoles, evaluateRoles, type ResourceVerb } from './resource-roles.js';
import { secretResources } from './secret-kinds.js';

/**
 * Who is asking, and how far a human stands behind the request:
 * - `read`: an AI tool call that ran without a human's approval: reads (get, list, watch), the
 *   access reviews kubectl sends, and dry runs of the resources that honour them
 *   (src/rbac/dry-run-table.ts) only;
 * - `approved`: an AI tool call a human approved in the chat: the role and the policy decide,
 *   exactly as for `direct`. The approval is consent, not authorization: it never stands in for
 *   the matrix's `approval` entries (docs/adr/0026-read-mode-and-consent.md);
 * - `direct`: a person's own request (HTTP routes, MCP server mode): the matrix, where `approval`
 *   entries need an approved just-in-time access request.
 */
export type PolicyMode = 'read' | 'approved' | 'direct';

export type PolicyCode =
  'allowed' | 'unauthenticated' | 'invalid_request' | 'read_only' | 'role' | 'approval_required' | 'resource_role' | 'own_namespace' | 'discovery_failed';

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
  /** The verb a refusal is about when it is not the request's own (a server-side apply refused as `create`). */
  verb?: string;
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
/**
 * Resources of Pilothouse's own namespace that only admins may touch at all: every kind that carries
 * secret values (src/rbac/secret-kinds.ts: Secrets, MCPServers), and its config, Lease and service accounts.
 */
const closedInOwnNamespace: ReadonlySet<string> = new Set([...secretResources, 'configmaps', 'leases', 'serviceaccounts']);

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

/**
 * The matrix permission a request needs. A dry run is a read only where it persists nothing (the
 * resources of src/rbac/dry-run-table.ts); `dryRun=All` on anything else is the write it is.
 */
export function permissionFor(attributes: RequestAttributes): Permission {
  if (interactiveSubresources.has(attributes.subresource)) return 'execute_write';
  if (readVerbs.has(attributes.verb) || honoursDryRun(attributes)) return attributes.subresource === 'log' ? 'view_logs' : 'view';
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

/** What an access request for this request must cover, in words a person or a model can act on. */
function accessRequestHint(permission: Permission, attributes: RequestAttributes | undefined): string {
  if (!attributes?.isResourceRequest) return `request access (permission ${permission}), then try again`;
  const namespace = attributes.namespace && attributes.resource !== 'namespaces' ? `, namespace ${attributes.namespace}` : '';
  return `request access (permission ${permission}, resource ${attributes.resource}${namespace}) and try again once an admin approved it`;
}

/**
 * The matrix by role. `approval` passes only with an approved just-in-time grant, on every path: a
 * chat approval is consent, never authorization (whatever a person could not do directly, the AI
 * cannot do for them either).
 */
function matrixDecision(
  principal: Principal,
  permission: Permission,
  hasGrant: (permission: Permission) => boolean,
  attributes?: RequestAttributes,
): PolicyDecision {
  const entry = permissionMatrix[permission][principal.role];
  if (entry === 'yes') return allow(permission);
  if (entry === 'approval' && hasGrant(permission)) return allow(permission);
  const what = attributes?.isResourceRequest ? ` (${describeRequest(attributes)})` : '';
  if (entry === 'approval')
    return deny(
      'approval_required',
      `role ${principal.role} needs an approved access request to ${permission.replace('_', ' ')}${what}: ${accessRequestHint(permission, attributes)}`,
      permission,
    );
  return deny('role', `role ${principal.role} may not ${permission.replace('_', ' ')}${what}`, permission);
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

/** Mode `read`: reads and dry runs that persist nothing (both `view`/`view_logs` by `permissionFor`), nothing else. */
function readModeDecision(attributes: RequestAttributes, permission: Permission): PolicyDecision | undefined {
  if (permission === 'view' || permission === 'view_logs') return undefined;
  const dryRun = attributes.dryRun ? ' (dryRun=All does not make this request a dry run)' : '';
  return deny('read_only', `this command ran as read-only and tried to ${describeRequest(attributes)}${dryRun}; it needs approval`, permission);
}

/** The access reviews kubectl sends (`auth can-i`, `auth can-i --list`, `auth whoami`): a create of the collection. */
function isSelfReview(attributes: RequestAttributes): boolean {
  const collection = attributes.name === '' && attributes.subresource === '';
  return collection && attributes.verb === 'create' && selfReviews.has(`${attributes.apiGroup}/${attributes.resource}`);
}

/**
 * The one authorization decision of Pilothouse, pure: the permission matrix by role, the mode of
 * the call, Pilothouse's own namespace, just-in-time grants and resource-level roles (a deny
 * overrides every allow). HTTP routes, the AI tools (through the policy proxy), MCP server mode,
 * helm and reports all call it with the request's attributes.
 */
export function decide(principal: Principal | undefined, attributes: RequestAttributes, mode: PolicyMode, facts: PolicyFacts): PolicyDecision {
  if (attributes.apply) return applyDecision(principal, attributes, mode, facts);
  return requestDecision(principal, attributes, mode, facts);
}

/**
 * A server-side apply (`attributes.apply`: a PATCH with `application/apply-patch+…` through the policy proxy, or the
 * apply route) creates the object when it does not exist, which kube-apiserver authorizes as `create` of that name:
 * it is decided as `patch` and as `create` of the object, and passes only when both do, on every path.
 */
function applyDecision(principal: Principal | undefined, attributes: RequestAttributes, mode: PolicyMode, facts: PolicyFacts): PolicyDecision {
  const asPatch = requestDecision(principal, { ...attributes, verb: 'patch', apply: false }, mode, facts);
  if (!asPatch.allowed) return asPatch;
  const asCreate = requestDecision(principal, { ...attributes, verb: 'create', apply: false }, mode, facts);
  if (asCreate.allowed) return asPatch;
  return { ...asCreate, verb: 'create', reason: `${asCreate.reason} (a server-side apply creates the object when it does not exist)` };
}

function requestDecision(principal: Principal | undefined, attributes: RequestAttributes, mode: PolicyMode, facts: PolicyFacts): PolicyDecision {
  if (!principal) return deny('unauthenticated', 'authentication required');
  if (attributes.invalid) return deny('invalid_request', `${attributes.verb.toUpperCase()} ${attributes.path} is refused: ${attributes.invalid}`);
  if (mode !== 'direct' && principal.role === 'viewer') return deny('role', 'role viewer may not run tools');
  if (!attributes.isResourceRequest) return nonResourceDecision(principal, attributes, mode);
  if (isSelfReview(attributes)) return allow();
  const permission = permissionFor(attributes);
  const readOnly = mode === 'read' ? readModeDecision(attributes, permission) : undefined;
  if (readOnly) return readOnly;
  const closed = ownNamespaceDecision(principal, attributes, permission, facts.ownNamespace);
  if (closed) return closed;
  const matrix = matrixDecision(principal, permission, facts.hasGrant, attributes);
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
  return matrixDecision(principal, permission, hasGrant);
}
