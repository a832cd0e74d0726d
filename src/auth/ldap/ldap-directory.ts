import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import type { Config } from '../../config/schema.js';
import { fillFilter } from './ldap-filter.js';

export type LdapSettings = Config['ldap'];

/** A directory user who proved their password. */
export interface DirectoryIdentity {
  dn: string;
  /** The entry's own name (`ldap.username_attribute` as the directory returns it): the canonical username. */
  username: string;
  email: string | null;
  /** Each group the user is a member of: its DN and, when present, its `cn` values. */
  groups: { dn: string; names: string[] }[];
}

/** Why the directory did not confirm a login: bad credentials (incl. unknown or ambiguous user) or an unusable directory. */
export class DirectoryRefusal extends Error {
  constructor(
    readonly reason: 'invalid_credentials' | 'directory_unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'DirectoryRefusal';
  }
}

const connectTimeoutMs = 5000;
const operationTimeoutMs = 10_000;

/** Attribute names are case-insensitive in LDAP: `sAMAccountName` finds `samaccountname`. */
function firstString(entry: Entry, attribute: string): string | null {
  const key = Object.keys(entry).find((name) => name.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return null;
  return typeof first === 'string' ? first : first.toString('utf8');
}

function strings(entry: Entry, attribute: string): string[] {
  const value = entry[attribute];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'string' ? item : item.toString('utf8')));
}

/** Anything but a rejected bind is the directory's (or the network's) fault. */
function unavailable(stage: string, error: unknown): DirectoryRefusal {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new DirectoryRefusal('directory_unavailable', `${stage}: ${detail}`);
}

/**
 * The LDAP directory behind `--auth-mode ldap` (ldapts): bind as the service account, find exactly
 * one user with `user_filter`, bind as that user with their password, then read their groups with
 * `group_filter`. Passwords are only ever sent to the directory, never logged or kept.
 */
export class LdapDirectory {
  constructor(private readonly settings: LdapSettings) {}

  get url(): string {
    return `${this.settings.use_ssl ? 'ldaps' : 'ldap'}://${this.settings.host}:${this.settings.port}`;
  }

  /** `username` is the login name as typed (normalised); the identity carries the entry's own spelling. */
  async authenticate(username: string, password: string): Promise<DirectoryIdentity> {
    // An empty password would be an unauthenticated ("anonymous") simple bind that servers accept.
    if (password.length === 0) throw new DirectoryRefusal('invalid_credentials', 'empty password');
    const service = this.client();
    try {
      await this.bindService(service);
      const user = await this.findUser(service, username);
      await this.bindUser(user.dn, password);
      const groups = await this.groupsOf(service, user.dn);
      return { dn: user.dn, username: firstString(user, this.settings.username_attribute) ?? username, email: firstString(user, 'mail'), groups };
    } finally {
      await service.unbind().catch(() => undefined);
    }
  }

  private client(): Client {
    return new Client({
      url: this.url,
      connectTimeout: connectTimeoutMs,
      timeout: operationTimeoutMs,
      tlsOptions: this.settings.use_ssl ? { minVersion: 'TLSv1.2' } : undefined,
    });
  }

  private async bindService(service: Client): Promise<void> {
    try {
      await service.bind(this.settings.bind_dn, this.settings.bind_password);
    } catch (error) {
      throw unavailable('service account bind failed', error);
    }
  }

  private async findUser(service: Client, username: string): Promise<Entry> {
    const filter = fillFilter(this.settings.user_filter, username);
    const entries = await this.search(service, filter, ['mail', this.settings.username_attribute]);
    if (entries.length !== 1) throw new DirectoryRefusal('invalid_credentials', entries.length === 0 ? 'no such user' : 'ambiguous user');
    return entries[0]!;
  }

  private async bindUser(dn: string, password: string): Promise<void> {
    const user = this.client();
    try {
      await user.bind(dn, password);
    } catch (error) {
      if (error instanceof InvalidCredentialsError) throw new DirectoryRefusal('invalid_credentials', 'wrong password');
      throw unavailable('user bind failed', error);
    } finally {
      await user.unbind().catch(() => undefined);
    }
  }

  private async groupsOf(service: Client, userDn: string): Promise<DirectoryIdentity['groups']> {
    const entries = await this.search(service, fillFilter(this.settings.group_filter, userDn), ['cn']);
    return entries.map((entry) => ({ dn: entry.dn, names: strings(entry, 'cn') }));
  }

  private async search(service: Client, filter: string, attributes: string[]): Promise<Entry[]> {
    try {
      const result = await service.search(this.settings.base_dn, { scope: 'sub', filter, attributes });
      return result.searchEntries;
    } catch (error) {
      throw unavailable('search failed', error);
    }
  }
}
