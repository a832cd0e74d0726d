import { z } from 'zod';
import { roleNames } from './role-schemas.js';

/** Names the API server reserves for itself (`system:masters`, `system:serviceaccount:…`); never taken from an identity provider. */
export const reservedNamePrefix = 'system:';

/** True for a name in the API server's reserved `system:` space (compared without case, to be safe). */
export function isReservedName(name: string): boolean {
  return name.toLowerCase().startsWith(reservedNamePrefix);
}

const nameToRole = z.record(z.string().min(1), z.enum(roleNames));

const flatFormMessage =
  'the flat form {name: role} is no longer read: it mixes user and group names (a user named like a mapped group took its role); ' +
  'move each entry under users: or groups:, e.g. role_mappings: {groups: {devs: user}, users: {alice: admin}}';

/**
 * `oidc.role_mappings`: user names and group names (both unprefixed) in separate maps, so a user named
 * like a group never takes the group's role. The old flat form `{name: role}` cannot be read without
 * guessing which names are users; it is refused with the migration (only `{}` reads the same in both).
 */
export const oidcRoleMappingsSchema = z
  .record(z.string(), z.unknown())
  .superRefine((mappings, context) => {
    if (Object.values(mappings).some((value) => typeof value === 'string')) context.addIssue({ code: 'custom', message: flatFormMessage });
  })
  .pipe(z.strictObject({ users: nameToRole.default({}), groups: nameToRole.default({}) }))
  .default({ users: {}, groups: {} });

const prefixSchema = z
  .string()
  .refine((prefix) => !isReservedName(prefix), `must not start with "${reservedNamePrefix}" (names the API server reserves for itself)`);

/** `oidc`: single sign-on with OpenID Connect (docs/operator-manual/authentication.md, "Single sign-on", ADR 0020). */
export const oidcSchema = z
  .object({
    issuer: z.string().optional(),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    redirect_url: z.string().optional(),
    scopes: z
      .union([z.string(), z.array(z.string())])
      .default('openid profile email groups')
      .transform((value) => (Array.isArray(value) ? value : value.split(/\s+/).filter(Boolean))),
    /** The claim naming the user; `preferred_username` falls back to `email`, then `sub`. */
    username_claim: z.string().min(1).default('preferred_username'),
    /** Prefix of SSO user names, so they never collide with local ones (and never reach the cluster bare). */
    username_prefix: prefixSchema.default('oidc:'),
    /** Prefix of SSO groups toward the cluster; unset: `username_prefix`. */
    groups_prefix: prefixSchema.optional(),
    groups_claim: z.string().min(1).default('groups'),
    /** `{users: {name: role}, groups: {name: role}}` (names without prefix); the highest mapped role wins. */
    role_mappings: oidcRoleMappingsSchema,
    /** Role of users no mapping names; absent: such users cannot sign in. */
    default_role: z.enum(roleNames).optional(),
    /** Audiences accepted on bearer ID tokens besides `client_id`. */
    api_audiences: z.array(z.string().min(1)).default([]),
    /** PEM file of the CA that signs the provider's TLS certificate (private CAs). */
    ca_file: z.string().optional(),
    button_label: z.string().min(1).max(80).default('Sign in with SSO'),
  })
  .transform(({ groups_prefix, ...oidc }) => ({ ...oidc, groups_prefix: groups_prefix ?? oidc.username_prefix }))
  .prefault({});

/** The parts of the whole config the start-up check below reads. */
interface ImpersonationView {
  authorization: { impersonation: { enabled: boolean; mode: 'role' | 'user' } };
  oidc: { username_prefix: string; groups_prefix: string };
}

/**
 * Refuses a config that would send identity provider names to the cluster bare: under
 * `authorization.impersonation.mode: user` SSO users are impersonated as themselves, so an empty
 * prefix would let the provider name `system:masters` (or any cluster user) directly.
 */
export function refuseBarePrefixes(config: ImpersonationView, context: z.RefinementCtx): void {
  const { enabled, mode } = config.authorization.impersonation;
  if (!enabled || mode !== 'user') return;
  for (const key of ['username_prefix', 'groups_prefix'] as const) {
    if (config.oidc[key] !== '') continue;
    context.addIssue({
      code: 'custom',
      path: ['oidc', key],
      message: 'must not be empty when authorization.impersonation.mode is user (identity provider names would reach the cluster unprefixed)',
    });
  }
}
