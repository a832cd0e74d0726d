import type { Config, RoleName } from '../config/schema.js';
import { unauthorized } from '../errors.js';

export type OidcSettings = Config['oidc'];

/** Who an ID token speaks for, in Pilothouse's terms. */
export interface OidcIdentity {
  /** Prefixed user name (`oidc:alice`). */
  username: string;
  /** Prefixed groups (`oidc:platform-team`), as sent to the cluster in `impersonation.mode: user`. */
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

/** The highest role any of the user's groups or their name maps to; `default_role` otherwise, or refusal. */
function roleOf(name: string, groups: string[], settings: OidcSettings): RoleName {
  let best: RoleName | undefined;
  for (const key of [name, ...groups]) {
    const role = settings.role_mappings[key];
    if (role && (best === undefined || rank[role] > rank[best])) best = role;
  }
  best ??= settings.default_role;
  if (best) return best;
  throw unauthorized(`no role is mapped for this user: the "${settings.groups_claim}" claim names no group in oidc.role_mappings`, {
    reason: 'no_role_mapping',
    claim: settings.groups_claim,
    groups,
  });
}

/**
 * Maps verified ID token claims to a Pilothouse identity: name from `oidc.username_claim`
 * (with `oidc.username_prefix`), groups from `oidc.groups_claim`, role from `oidc.role_mappings`
 * (keys are unprefixed group or user names; highest wins) or `oidc.default_role`.
 */
export function identityFromClaims(claims: Record<string, unknown>, settings: OidcSettings): OidcIdentity {
  const name = usernameOf(claims, settings);
  const groups = groupsOf(claims, settings);
  const role = roleOf(name, groups, settings);
  const prefix = settings.username_prefix;
  return {
    username: `${prefix}${name}`.slice(0, 253),
    groups: groups.map((group) => `${prefix}${group}`),
    role,
    email: claimText(claims, 'email') ?? null,
  };
}
