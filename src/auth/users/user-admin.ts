import type { AuditInput, AuditRecorder } from '../../audit/types.js';
import { notFound, validation } from '../../errors.js';
import type { SessionRecord } from '../../store/sessions-store.js';
import type { SessionsStore } from '../../store/sessions-store.js';
import type { UserChanges, UserRecord, UsersStore } from '../../store/users-store.js';
import { hashPassword } from '../login/passwords.js';
import type { Principal } from '../../rbac/principal.js';
import type { SessionManager } from '../sessions/sessions.js';
import { publicUser, type CreateUserInput, type PublicUser, type UpdateUserInput } from './user-schemas.js';

/** Who asks, for the rules (not yourself) and the audit (user, source, request id). */
export interface Actor {
  principal: Principal;
  audit: Pick<AuditInput, 'user' | 'source' | 'requestId'>;
}

export interface PublicSession {
  id: string;
  createdAt: string;
  expires_at: string;
  revokedAt: string | null;
  source: string | null;
  userAgent: string | null;
}

function fieldError(field: string, message: string): Error {
  return validation(`${field}: ${message}`, { fields: { [field]: message } });
}

function isActiveAdmin(user: UserRecord): boolean {
  return user.role === 'admin' && user.enabled && !user.locked;
}

/** Whether the change takes away the user's active-admin standing. */
function demotes(user: UserRecord, changes: UpdateUserInput): 'role' | 'enabled' | undefined {
  if (!isActiveAdmin(user)) return undefined;
  if (changes.role !== undefined && changes.role !== 'admin') return 'role';
  if (changes.enabled === false) return 'enabled';
  return undefined;
}

export interface UserAdminContext {
  audit: AuditRecorder;
  roleNames: ReadonlySet<string>;
  /**
   * Token mode: identities are known only once they call, so locking a name not yet in the store
   * keeps it as an account of this source (role `viewer` until its first call), locked.
   */
  lockableSource?: string;
}

/**
 * User management for admins: accounts, sessions, locks. Enforces: never yourself (lock, delete,
 * disable), never the last enabled admin, unique usernames, known resource-level role names.
 */
export class UserAdmin {
  constructor(
    private readonly users: UsersStore,
    private readonly sessionsStore: SessionsStore,
    private readonly sessions: SessionManager,
    private readonly context: UserAdminContext,
  ) {}

  async list(): Promise<PublicUser[]> {
    return (await this.users.list()).map(publicUser);
  }

  async get(username: string): Promise<PublicUser> {
    return publicUser(await this.require(username));
  }

  async create(input: CreateUserInput, actor: Actor): Promise<PublicUser> {
    this.checkRoleNames(input.roles);
    const passwordHash = await hashPassword(input.password);
    const inserted = await this.users.insert({ ...input, email: input.email ?? null, passwordHash });
    if (!inserted) throw fieldError('username', `user "${input.username}" already exists`);
    this.recordChange(actor, input.username, `user create ${input.username} ${changeFlags(input)}`);
    return this.get(input.username);
  }

  async update(username: string, changes: UpdateUserInput, actor: Actor): Promise<PublicUser> {
    const user = await this.require(username);
    if (changes.roles) this.checkRoleNames(changes.roles);
    if (changes.enabled === false && username === actor.principal.username) throw fieldError('enabled', 'you cannot disable yourself');
    const lost = demotes(user, changes);
    if (lost) await this.keepOneAdmin(lost);
    const stored: UserChanges = { role: changes.role, email: changes.email, enabled: changes.enabled, roles: changes.roles };
    if (changes.password !== undefined) stored.passwordHash = await hashPassword(changes.password);
    const updated = await this.users.update(username, stored);
    this.recordChange(actor, username, `user update ${username} ${changeFlags(changes)}`);
    await this.afterUpdate(user, updated, changes, actor);
    return publicUser(updated ?? user);
  }

  /**
   * A new password or a disable ends the user's sessions; a new role or roles ends what they opened with the old
   * ones (live lists, terminals, chats waiting for an approval), on every replica (src/auth/sessions/session-streams.ts).
   */
  private async afterUpdate(user: UserRecord, updated: UserRecord | undefined, changes: UpdateUserInput, actor: Actor): Promise<void> {
    if (changes.password !== undefined || changes.enabled === false) await this.endSessions(user.username, actor);
    else if (updated && roleSetChanged(user, updated)) this.sessions.roleChanged(user.username);
  }

  async delete(username: string, actor: Actor): Promise<void> {
    const user = await this.require(username);
    if (username === actor.principal.username) throw fieldError('username', 'you cannot delete yourself');
    if (isActiveAdmin(user)) await this.keepOneAdmin('username');
    await this.sessions.revokeAll(username);
    await this.users.delete(username);
    this.recordChange(actor, username, `user delete ${username}`);
  }

  async listSessions(username: string): Promise<PublicSession[]> {
    await this.require(username);
    return (await this.sessionsStore.listFor(username)).map(publicSession);
  }

  /** Ends one session (by id) or all of a user's sessions; recorded as `logout` by the admin. */
  async revokeSessions(username: string, actor: Actor, sessionId?: string): Promise<{ revoked: number }> {
    await this.require(username);
    if (sessionId === undefined) return { revoked: await this.endSessions(username, actor) };
    const session = await this.sessionsStore.find(sessionId);
    if (!session || session.username !== username) throw notFound(`user ${username} has no session ${sessionId}`, { session: sessionId });
    const revoked = (await this.sessions.revoke(sessionId)) ? 1 : 0;
    this.context.audit.record({
      ...actor.audit,
      action: 'logout',
      resource: `session/${sessionId}`,
      decision: 'allow',
      details: { username, by: actor.principal.username },
      outcome: 'success',
    });
    return { revoked };
  }

  /** Locks a user: every session ends at once; persists; audited as `lock`. */
  async lock(username: string, actor: Actor): Promise<PublicUser> {
    const user = (await this.users.find(username)) ?? (await this.lockableAccount(username));
    if (username === actor.principal.username) throw fieldError('username', 'you cannot lock yourself');
    if (isActiveAdmin(user)) await this.keepOneAdmin('username');
    const updated = (await this.users.update(username, { locked: true })) ?? user;
    const revoked = await this.sessions.revokeAll(username);
    this.context.audit.record({
      ...actor.audit,
      action: 'lock',
      resource: `user/${username}`,
      decision: 'allow',
      details: { locked: true, sessionsRevoked: revoked },
      outcome: 'success',
    });
    return publicUser(updated);
  }

  async unlock(username: string, actor: Actor): Promise<PublicUser> {
    const user = await this.require(username);
    const updated = (await this.users.update(username, { locked: false })) ?? user;
    this.context.audit.record({
      ...actor.audit,
      action: 'lock',
      resource: `user/${username}`,
      decision: 'allow',
      details: { locked: false },
      outcome: 'success',
    });
    return publicUser(updated);
  }

  /** An identity of `lockableSource` not seen yet (token mode), kept so that the lock has a row; otherwise NOT_FOUND. */
  private async lockableAccount(username: string): Promise<UserRecord> {
    const source = this.context.lockableSource;
    const user = source === undefined ? undefined : await this.users.upsertExternal({ username, role: 'viewer', email: null }, source);
    if (!user) throw notFound(`no user "${username}"`, { username });
    return user;
  }

  private async require(username: string): Promise<UserRecord> {
    const user = await this.users.find(username);
    if (!user) throw notFound(`no user "${username}"`, { username });
    return user;
  }

  private async keepOneAdmin(field: string): Promise<void> {
    if ((await this.users.countActiveAdmins()) <= 1) throw fieldError(field, 'the last enabled admin must stay an enabled, unlocked admin');
  }

  private checkRoleNames(roles: readonly string[]): void {
    const unknown = roles.filter((name) => !this.context.roleNames.has(name));
    if (unknown.length > 0) throw fieldError('roles', `unknown role ${unknown.map((name) => `"${name}"`).join(', ')} (define it in authorization.roles)`);
  }

  /** User creation, changes and deletion: audited as `execute` with an equivalent command line (no password). */
  private recordChange(actor: Actor, username: string, command: string): void {
    this.context.audit.record({
      ...actor.audit,
      action: 'execute',
      resource: `user/${username}`,
      decision: 'allow',
      details: { command: command.trim() },
      outcome: 'success',
    });
  }

  private async endSessions(username: string, actor: Actor): Promise<number> {
    const revoked = await this.sessions.revokeAll(username);
    if (revoked > 0) {
      this.context.audit.record({
        ...actor.audit,
        action: 'logout',
        resource: `user/${username}`,
        decision: 'allow',
        details: { username, by: actor.principal.username, sessionsRevoked: revoked },
        outcome: 'success',
      });
    }
    return revoked;
  }
}

function roleSetChanged(before: UserRecord, after: UserRecord): boolean {
  return before.role !== after.role || [...before.roles].sort().join('\u0000') !== [...after.roles].sort().join('\u0000');
}

/** The changed fields as flags; a new password shows only as `--password [redacted]`. */
function changeFlags(changes: UpdateUserInput): string {
  const flags: string[] = [];
  if (changes.role !== undefined) flags.push(`--role ${changes.role}`);
  if (changes.roles !== undefined) flags.push(`--roles=${changes.roles.join(',')}`);
  if (changes.email !== undefined) flags.push(`--email=${changes.email ?? ''}`);
  if (changes.enabled !== undefined) flags.push(`--enabled=${changes.enabled}`);
  if (changes.password !== undefined) flags.push('--password [redacted]');
  return flags.join(' ');
}

/** A session as the API shows it: not its user's SSO groups. */
function publicSession(session: SessionRecord): PublicSession {
  const { id, createdAt, expiresAt, revokedAt, source, userAgent } = session;
  return { id, createdAt, expires_at: expiresAt, revokedAt, source, userAgent };
}
