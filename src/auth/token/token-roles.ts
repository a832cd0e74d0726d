import type { Config, RoleName, TokenRoleMapping } from '../../config/schema.js';
import type { KubernetesUser } from './token-review.js';

/** The base role and resource-level roles a Kubernetes user gets. */
export interface MappedRoles {
  role: RoleName;
  roles: readonly string[];
}

/** True when every condition the mapping names (user, group) holds for the user. */
export function mappingMatches(mapping: TokenRoleMapping, user: KubernetesUser): boolean {
  if (mapping.user !== undefined && mapping.user !== user.username) return false;
  return mapping.group === undefined || user.groups.includes(mapping.group);
}

/**
 * `auth.token.role_mappings` in order, first match wins; otherwise `auth.token.default_role`;
 * undefined when neither gives a role (the caller is refused with `no_role_mapping`).
 */
export function rolesFor(user: KubernetesUser, settings: Config['auth']['token']): MappedRoles | undefined {
  const mapping = settings.role_mappings.find((entry) => mappingMatches(entry, user));
  if (mapping) return { role: mapping.role, roles: mapping.roles };
  return settings.default_role ? { role: settings.default_role, roles: [] } : undefined;
}
