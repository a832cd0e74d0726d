import type { Config, RoleName } from '../config/schema.js';
import { roleNames } from '../config/schema.js';
import type { Report } from '../crds/report.js';
import { rolesFor } from '../auth/token/token-roles.js';
import type { Principal } from '../rbac/principal.js';
import type { UserRecord } from '../store/users-store.js';

/** Annotations Pilothouse sets when it creates a Report for a caller (an admission policy keeps others from setting them). */
export const requesterAnnotations = {
  role: 'pilothouse.dev/requester-role',
  roles: 'pilothouse.dev/requester-roles',
  groups: 'pilothouse.dev/requester-groups',
  source: 'pilothouse.dev/requester-source',
} as const;

/** The annotations recording a caller's roles on a Report created through the API. */
export function annotationsFor(principal: Principal): Record<string, string> {
  return {
    [requesterAnnotations.role]: principal.role,
    [requesterAnnotations.roles]: JSON.stringify(principal.roles),
    ...(principal.groups ? { [requesterAnnotations.groups]: JSON.stringify(principal.groups) } : {}),
    ...(principal.identitySource ? { [requesterAnnotations.source]: principal.identitySource } : {}),
  };
}

/** What the resolver reads: accounts by name and the auth settings. */
export interface RequesterDirectoryDeps {
  findUser(username: string): Promise<UserRecord | undefined>;
  authMode: Config['auth']['mode'];
  tokenSettings: Config['auth']['token'];
}

/** A resolved requester, or why a report cannot be generated for them. */
export type Resolution = { principal: Principal } | { problem: string };

function stringList(text: string | undefined): string[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function annotatedPrincipal(username: string, annotations: Record<string, string>): Principal | undefined {
  const role = annotations[requesterAnnotations.role];
  if (!roleNames.includes(role as RoleName)) return undefined;
  const groups = annotations[requesterAnnotations.groups];
  return {
    username,
    role: role as RoleName,
    roles: stringList(annotations[requesterAnnotations.roles]),
    ...(groups ? { groups: stringList(groups) } : {}),
    ...(annotations[requesterAnnotations.source] === 'oidc' ? { identitySource: 'oidc' as const } : {}),
  };
}

/**
 * Maps `spec.requester` to the Pilothouse principal a report is generated for (docs/adr/0021):
 * 1. a Pilothouse account of that name (users table: local, LDAP, SSO) decides, and a disabled or
 *    locked account gets no report;
 * 2. otherwise the roles Pilothouse recorded when it created the Report through the API;
 * 3. otherwise, in token mode, `auth.token.role_mappings` by user name, then `default_role`;
 * 4. under `--no-auth` everyone acts as admin, so does the requester;
 * anything else is refused with the reason.
 */
export class RequesterDirectory {
  constructor(private readonly deps: RequesterDirectoryDeps) {}

  async resolve(report: Report): Promise<Resolution> {
    const username = report.spec.requester?.trim();
    if (!username) return { problem: 'spec.requester is empty: a report is generated for a named Pilothouse user' };
    const account = await this.deps.findUser(username);
    if (account) return this.fromAccount(account);
    const annotated = annotatedPrincipal(username, report.metadata.annotations ?? {});
    if (annotated) return { principal: annotated };
    return this.fromSettings(username);
  }

  private fromAccount(account: UserRecord): Resolution {
    if (!account.enabled || account.locked) return { problem: `requester ${account.username} is ${account.locked ? 'locked' : 'disabled'} in Pilothouse` };
    return { principal: { username: account.username, role: account.role, roles: account.roles } };
  }

  private fromSettings(username: string): Resolution {
    if (this.deps.authMode === 'none') return { principal: { username, role: 'admin', roles: [] } };
    if (this.deps.authMode === 'token') {
      const mapped = rolesFor({ username, groups: [] }, this.deps.tokenSettings);
      if (mapped) return { principal: { username, role: mapped.role, roles: mapped.roles } };
    }
    return {
      problem: `requester ${username} is not a Pilothouse user: no account of that name${this.deps.authMode === 'token' ? ' and no auth.token role mapping' : ''} (a Report created with kubectl is generated with the roles of the Pilothouse user of the same name)`,
    };
  }
}
