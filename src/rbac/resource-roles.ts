import type { ResourceRole, RoleName } from '../config/schema.js';

/** Verbs of resource-level roles: the contract's `get, list, watch` plus the write verbs. */
export type ResourceVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

/** What a request touches, as resource-level roles see it. */
export interface ResourceTarget {
  /** Every name the kind goes by (plural, `plural.group`, singular, kind, short names), lowercase. */
  names: readonly string[];
  /** The namespace, or undefined for cluster-scoped kinds and lists across all namespaces. */
  namespace?: string;
  verb: ResourceVerb;
}

/**
 * The resource-level roles that apply to a user: the definitions named in the user's `roles`
 * field plus any definition named after the user's base role (`viewer`, `user`, `admin`).
 */
export function effectiveRoles(definitions: readonly ResourceRole[], baseRole: RoleName, extraRoles: readonly string[]): ResourceRole[] {
  const names = new Set([baseRole, ...extraRoles]);
  return definitions.filter((definition) => names.has(definition.name));
}

function coversVerb(role: ResourceRole, verb: ResourceVerb): boolean {
  return role.verbs.includes('*') || role.verbs.includes(verb);
}

function coversResource(role: ResourceRole, names: readonly string[]): boolean {
  return role.resources.some((resource) => resource === '*' || names.includes(resource.toLowerCase()));
}

function coversNamespace(role: ResourceRole, namespace: string | undefined): boolean {
  return role.namespaces.includes('*') || (namespace !== undefined && role.namespaces.includes(namespace));
}

/** Whether a role definition speaks about this target at all. */
export function covers(role: ResourceRole, target: ResourceTarget): boolean {
  return coversVerb(role, target.verb) && coversResource(role, target.names) && coversNamespace(role, target.namespace);
}

/** `deny` when any deny role covers the target (deny overrides allow), else `allow` when an allow role does, else `none`. */
export function evaluateRoles(roles: readonly ResourceRole[], target: ResourceTarget): 'allow' | 'deny' | 'none' {
  const matching = roles.filter((role) => covers(role, target));
  if (matching.some((role) => role.effect === 'deny')) return 'deny';
  return matching.length > 0 ? 'allow' : 'none';
}

/**
 * For a list across all namespaces: whether deny roles refuse every namespace (`all`), and which
 * namespaces they refuse (those items are left out of the list instead of failing it).
 */
export function deniedNamespaces(roles: readonly ResourceRole[], target: Omit<ResourceTarget, 'namespace'>): { all: boolean; namespaces: Set<string> } {
  const denying = roles.filter((role) => role.effect === 'deny' && coversVerb(role, target.verb) && coversResource(role, target.names));
  const all = denying.some((role) => role.namespaces.includes('*'));
  return { all, namespaces: new Set(denying.flatMap((role) => role.namespaces)) };
}
