import type { Config, RoleName } from '../../config/schema.js';
import { unauthorized } from '../../errors.js';
import { isReservedName } from '../../config/oidc-schema.js';

export type OidcSettings = Config['oidc'];

/** Who an ID token speaks for, in Pilothouse's terms. */
export interface OidcIdentity {
  /** Prefixed user name (`oidc:alice`). */
  username: string;
  /** Prefixed groups (`oidc.groups_prefix`: `oidc:platform-team`), as sent to the cluster in `impersonation.mode: user`. */
  groups: string[];
  role: RoleName;
  email: string | null;
}

const rank: Record<RoleName, number> = { viewer: 0, user: 1, admin: 2 };

function claimText(claims: Record<string, unknown>, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The configured claim; the default `preferred_username` falls back to `email`, then `sub`. */
function usernameOf(claims: Record<string, unknown>, settings: OidcSettings): string {
  const chain = settings.username_claim === 'preferred_username' ? ['preferred_username', 'email', 'sub'] : [settings.username_claim];
  for (const claim of chain) {
    const value = claimText(claims, claim);
    if (value) return value;
  }
  throw unauthorized(`the ID token has no "${settings.username_claim}" claim to name the user`, { reason: 'missing_claim', claim: settings.username_claim });
}

function groupsOf(claims: Record<string, unknown>, settings: OidcSettings): string[] {
  const value = claims[settings.groups_claim];
  if (Array.isArray(value)) return value.filter((group): group is string => typeof group === 'string' && group !== '');
  return typeof value === 'string' && value !== '' ? [value] : [];
}

/** The role a map gives a name; own keys only (a name such as `constructor` maps to nothing). */
function mapped(map: Record<string, RoleName>, name: string): RoleName | undefined {
  return Object.hasOwn(map, name) ? map[name] : undefined;
}

/**
 * The highest role of `oidc.role_mappings.users[name]` and `oidc.role_mappings.groups[group]` (two maps:
 * a user named like a mapped group does not take its role); `default_role` otherwise, or refusal.
 */
function roleOf(name: string, groups: string[], settings: OidcSettings): RoleName {
  const { users, groups: groupRoles } = settings.role_mappings;
  const roles = [mapped(users, name), ...groups.map((group) => mapped(groupRoles, group))].filter((role): role is RoleName => role !== undefined);
  const best = roles.reduce<RoleName | undefined>((highest, role) => (highest === undefined || rank[role] > rank[highest] ? role : highest), undefined);
  const role = best ?? settings.default_role;
  if (role) return role;
  throw unauthorized(`no role is mapped for this user: the "${settings.groups_claim}" claim names no group in oidc.role_mappings.groups`, {
    reason: 'no_role_mapping',
    claim: settings.groups_claim,
    groups,
  });
}

/**
 * Refuses a name in the API server's reserved `system:` space, as the provider sent it or once prefixed:
 * under `impersonation.mode: user` it would reach the cluster (`system:masters` is cluster-admin).
 */
function refuseReserved(names: string[], claim: string): void {
  const reserved = names.find(isReservedName);
  if (reserved === undefined) return;
  throw unauthorized(
    `the identity provider named "${reserved.slice(0, 128)}" in the "${claim}" claim; names starting with "system:" are reserved for the cluster`,
    {
      reason: 'reserved_name',
      claim,
    },
  );
}

/**
 * Maps verified ID token claims to a Pilothouse identity: name from `oidc.username_claim`
 * (with `oidc.username_prefix`), groups from `oidc.groups_claim` (with `oidc.groups_prefix`), role from
 * `oidc.role_mappings` (`users` and `groups`, unprefixed names; highest wins) or `oidc.default_role`.
 * A `system:` name or group, bare or prefixed, is refused (401 `reserved_name`).
 */
export function identityFromClaims(claims: Record<string, unknown>, settings: OidcSettings): OidcIdentity {
  const name = usernameOf(claims, settings);
  const username = `${settings.username_prefix}${name}`.slice(0, 253);
  refuseReserved([name, username], settings.username_claim);
  const groups = groupsOf(claims, settings);
  const prefixedGroups = groups.map((group) => `${settings.groups_prefix}${group}`);
  refuseReserved([...groups, ...prefixedGroups], settings.groups_claim);
  return { username, groups: prefixedGroups, role: roleOf(name, groups, settings), email: claimText(claims, 'email') ?? null };
}
