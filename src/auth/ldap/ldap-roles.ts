import type { RoleName } from '../../config/schema.js';
import type { DirectoryIdentity } from './ldap-directory.js';

const rank: Record<RoleName, number> = { viewer: 0, user: 1, admin: 2 };

/**
 * The base role of a directory user from `ldap.group_roles`: keys match a group's DN or one of its
 * `cn` values, case-insensitively; the highest mapped role wins; undefined when no group is mapped.
 */
export function roleFromGroups(groups: DirectoryIdentity['groups'], groupRoles: Record<string, RoleName>): RoleName | undefined {
  const mapping = new Map(Object.entries(groupRoles).map(([group, role]) => [group.toLowerCase(), role]));
  let best: RoleName | undefined;
  for (const group of groups) {
    for (const key of [group.dn, ...group.names]) {
      const role = mapping.get(key.toLowerCase());
      if (role && (best === undefined || rank[role] > rank[best])) best = role;
    }
  }
  return best;
}
