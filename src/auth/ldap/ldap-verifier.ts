import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import { unauthorized } from '../../errors.js';
import type { UserRecord, UsersStore } from '../../store/users-store.js';
import type { CredentialVerifier } from '../login/credential-verifier.js';
import { DirectoryRefusal, type LdapDirectory } from './ldap-directory.js';
import { roleFromGroups } from './ldap-roles.js';
import { adminUsername } from '../login/login.js';

export interface LdapVerifierParts {
  directory: LdapDirectory;
  users: UsersStore;
  /** The local accounts' verifier: only the break-glass `admin` uses it in LDAP mode. */
  local: CredentialVerifier;
  groupRoles: Config['ldap']['group_roles'];
  logger: Logger;
}

/** A login name as a directory's `caseIgnoreMatch` sees it: NFKC, lower case, no surrounding or repeated spaces. */
export function normalizeDirectoryName(username: string): string {
  return username.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * `--auth-mode ldap`: every username but the local break-glass `admin` is checked against the
 * directory; the base role comes from `ldap.group_roles`, and the user is kept in the users store
 * with `source: 'ldap'` (no password hash) so sessions, locking and disabling work as for local users.
 */
export class LdapCredentialVerifier implements CredentialVerifier {
  constructor(private readonly parts: LdapVerifierParts) {}

  /** How the directory compares names (RFC 4518 for `caseIgnoreMatch`): NFKC, case-folded, insignificant spaces dropped. */
  normalizeUsername(username: string): string {
    return normalizeDirectoryName(username);
  }

  /**
   * `username` is normalised; the account is kept under the name the directory returns for the
   * entry (`ldap.username_attribute`), so every spelling of one login is one identity.
   */
  async verify(username: string, password: string): Promise<UserRecord | undefined> {
    if (username === adminUsername) return this.parts.local.verify(username, password);
    const identity = await this.parts.directory.authenticate(username, password).catch((error: unknown) => this.refusal(error));
    if (!identity) return undefined;
    const role = roleFromGroups(identity.groups, this.parts.groupRoles);
    if (!role) throw unauthorized('no role is mapped to any of your directory groups', { reason: 'no_role_mapping' });
    const user = await this.parts.users.upsertExternal({ username: identity.username, role, email: identity.email }, 'ldap');
    if (!user) this.parts.logger.warn({ username: identity.username }, 'directory login refused: a local account has this username');
    return user;
  }

  /** Wrong credentials become undefined (the common 401); anything else is logged (never the password) and refused. */
  private refusal(error: unknown): undefined {
    if (error instanceof DirectoryRefusal && error.reason === 'invalid_credentials') return undefined;
    const detail = error instanceof Error ? error.message : String(error);
    this.parts.logger.error({ url: this.parts.directory.url, err: detail }, 'LDAP directory unavailable');
    throw unauthorized('the directory is unavailable; try again later', { reason: 'directory_unavailable' });
  }
}
