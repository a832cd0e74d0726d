import { randomUUID } from 'node:crypto';
import { unauthorized } from '../../errors.js';
import type { SessionsStore } from '../../store/sessions-store.js';
import type { UserRecord, UsersStore } from '../../store/users-store.js';
import type { Clock } from '../../clock.js';
import type { Principal } from '../../rbac/principal.js';
import type { IssuedToken, TokenSigner } from './tokens.js';
import type { Liveness, LivenessSource } from './session-streams.js';

export interface SessionSettings {
  durationMs: number;
  /** Absolute session lifetime from login (`authorization.jwt.max_session`). */
  maxSessionMs: number;
  refreshWindowMs: number;
  clock: Clock;
}

/** Where a login came from (kept with the session for the admin's session list). */
export interface SessionOrigin {
  source?: string;
  userAgent?: string;
  /** Groups the identity provider named at an SSO sign-in (prefixed). */
  groups?: readonly string[];
}

export interface StartedSession extends IssuedToken {
  sessionId: string;
}

/** Why an otherwise valid account may not act; undefined when it may. */
export function accountRefusal(user: UserRecord): 'locked' | 'disabled' | undefined {
  if (user.locked) return 'locked';
  if (!user.enabled) return 'disabled';
  return undefined;
}

/** Whether the stored account's role or resource-level roles differ from what the principal was given. */
function roleChanged(principal: Principal, user: UserRecord): boolean {
  if (principal.role !== user.role) return true;
  const given = [...principal.roles].sort();
  const stored = [...user.roles].sort();
  return given.length !== stored.length || given.some((name, index) => name !== stored[index]);
}

const roleChangedEnd: Liveness = { ended: { reason: 'role_changed', message: 'your role changed; open this again' } };

/**
 * Sessions behind the JWTs: a token is valid only while its signature, expiry, session
 * (not revoked) and user (exists, enabled, not locked) all are.
 */
export class SessionManager implements LivenessSource {
  private readonly endedListeners: ((username: string) => void)[] = [];

  constructor(
    private readonly users: UsersStore,
    private readonly sessions: SessionsStore,
    private readonly signer: TokenSigner,
    private readonly settings: SessionSettings,
  ) {}

  /** Opens a session for a user who has proven who they are, and issues its first token. */
  async start(user: UserRecord, origin: SessionOrigin): Promise<StartedSession> {
    const sessionId = randomUUID();
    const issued = await this.signer.issue({ username: user.username, role: user.role, sessionId }, this.settings.clock() + this.settings.maxSessionMs);
    await this.sessions.insert({
      id: sessionId,
      username: user.username,
      createdAt: new Date(this.settings.clock()).toISOString(),
      expiresAt: new Date(issued.expiresAt).toISOString(),
      source: origin.source ?? null,
      userAgent: origin.userAgent ?? null,
      groups: origin.groups,
    });
    return { ...issued, sessionId };
  }

  /** Verifies a bearer token end to end and returns who it speaks for; UNAUTHORIZED otherwise. */
  async principalFor(token: string): Promise<Principal> {
    const claims = await this.signer.verify(token);
    const session = await this.sessions.find(claims.sid);
    if (!session || session.username !== claims.sub) throw unauthorized('invalid token', { reason: 'unknown_session' });
    if (session.revokedAt) throw unauthorized('session ended', { reason: 'revoked' });
    const user = await this.users.find(claims.sub);
    if (!user) throw unauthorized('invalid token', { reason: 'unknown_user' });
    const refusal = accountRefusal(user);
    if (refusal) throw unauthorized(`account ${refusal}`, { reason: refusal });
    const sessionEndsAt = Date.parse(session.createdAt) + this.settings.maxSessionMs;
    return {
      username: user.username,
      role: user.role,
      roles: user.roles,
      groups: session.groups,
      ...(user.source === 'oidc' ? { identitySource: 'oidc' as const } : {}),
      sessionId: claims.sid,
      tokenExpiresAt: claims.exp * 1000,
      sessionEndsAt,
    };
  }

  /** When refresh becomes possible for a token expiring at `expiresAt` (ms). */
  refreshOpensAt(expiresAt: number): number {
    return expiresAt - this.settings.refreshWindowMs;
  }

  inRefreshWindow(expiresAt: number): boolean {
    return this.settings.clock() >= this.refreshOpensAt(expiresAt);
  }

  /** Inside the refresh window and a new token would last longer (the session's end caps every token). */
  worthRefreshing(principal: Principal): boolean {
    const { tokenExpiresAt, sessionEndsAt } = principal;
    if (tokenExpiresAt === undefined || !this.inRefreshWindow(tokenExpiresAt)) return false;
    return sessionEndsAt === undefined || Math.floor(sessionEndsAt / 1000) * 1000 > tokenExpiresAt;
  }

  /**
   * Issues a new token for the principal's session and extends the session to its expiry, never
   * past login + `max_session`: at or after that point the session is over (UNAUTHORIZED).
   */
  async refresh(principal: Principal): Promise<IssuedToken> {
    const session = principal.sessionId === undefined ? undefined : await this.sessions.find(principal.sessionId);
    if (!session) throw unauthorized('no session to refresh', { reason: 'no_session' });
    const endsAt = Date.parse(session.createdAt) + this.settings.maxSessionMs;
    if (this.settings.clock() >= endsAt) throw unauthorized('the session reached its maximum lifetime; log in again', { reason: 'session_max_lifetime' });
    const issued = await this.signer.issue({ username: principal.username, role: principal.role, sessionId: session.id }, endsAt);
    await this.sessions.extend(session.id, new Date(issued.expiresAt).toISOString());
    return issued;
  }

  async revoke(sessionId: string): Promise<boolean> {
    const session = await this.sessions.find(sessionId);
    const revoked = await this.sessions.revoke(sessionId, new Date(this.settings.clock()).toISOString());
    if (session) this.announceEnded(session.username);
    return revoked;
  }

  async revokeAll(username: string): Promise<number> {
    const revoked = await this.sessions.revokeAllFor(username, new Date(this.settings.clock()).toISOString());
    this.announceEnded(username);
    return revoked;
  }

  /**
   * The user's role or roles changed (an admin's change, an SSO sign-in): their open streams are looked at
   * again at once on this replica and end (`role_changed`); other replicas' streams end at their next sweep.
   */
  roleChanged(username: string): void {
    this.announceEnded(username);
  }

  /** Streams hear of revocations and role changes here (src/auth/sessions/session-streams.ts). */
  onSessionsEnded(listener: (username: string) => void): void {
    this.endedListeners.push(listener);
  }

  /**
   * Whether the session behind a principal still holds, for its open streams: ended (revoked, user
   * gone, locked or disabled, expired) or until when (the session's current expiry, which a refresh
   * extends). A principal whose role or roles are no longer the account's has ended too (`role_changed`):
   * what it opened keeps no authority of the old role. Principals without a session (token mode, SSO bearer
   * tokens) hold until their token's expiry while their user, if recorded, is neither locked nor disabled
   * (nor, for SSO users, given another role); without auth, always.
   */
  async liveness(principal: Principal): Promise<Liveness> {
    const user = await this.users.find(principal.username);
    if (principal.sessionId === undefined) return this.sessionlessLiveness(principal, user);
    // The account's state first: a lock or disable also revokes, and the stream should say which.
    if (!user) return { ended: { reason: 'unknown_user', message: 'account removed' } };
    const refusal = accountRefusal(user);
    if (refusal) return { ended: { reason: refusal, message: `account ${refusal}` } };
    if (roleChanged(principal, user)) return roleChangedEnd;
    const session = await this.sessions.find(principal.sessionId);
    if (!session) return { ended: { reason: 'unknown_session', message: 'session ended' } };
    if (session.revokedAt) return { ended: { reason: 'revoked', message: 'session ended' } };
    return this.untilExpiry(Date.parse(session.expiresAt));
  }

  /** Token mode's roles come from its mapping, not the account: only an SSO user's role is compared. */
  private sessionlessLiveness(principal: Principal, user: UserRecord | undefined): Liveness {
    const refusal = user ? accountRefusal(user) : undefined;
    if (refusal) return { ended: { reason: refusal, message: `account ${refusal}` } };
    if (user && principal.identitySource === 'oidc' && roleChanged(principal, user)) return roleChangedEnd;
    return this.untilExpiry(principal.tokenExpiresAt);
  }

  private untilExpiry(expiresAt: number | undefined): Liveness {
    if (expiresAt === undefined) return {};
    return this.settings.clock() >= expiresAt ? { ended: { reason: 'expired', message: 'session expired' } } : { endsAt: expiresAt };
  }

  private announceEnded(username: string): void {
    for (const listener of this.endedListeners) listener(username);
  }
}
