import { randomUUID } from 'node:crypto';
import { unauthorized } from '../errors.js';
import type { SessionsStore } from '../store/sessions-store.js';
import type { UserRecord, UsersStore } from '../store/users-store.js';
import type { Clock } from '../clock.js';
import type { Principal } from '../rbac/principal.js';
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

  /** Streams hear of revocations here (src/auth/session-streams.ts). */
  onSessionsEnded(listener: (username: string) => void): void {
    this.endedListeners.push(listener);
  }

  /**
   * Whether the session behind a principal still holds, for its open streams: ended (revoked, user
   * gone, locked or disabled, expired) or until when (the session's current expiry, which a refresh
   * extends). Principals without a session (token mode, SSO bearer tokens) hold until their token's
   * expiry while their user, if recorded, is neither locked nor disabled; without auth, always.
   */
  async liveness(principal: Principal): Promise<Liveness> {
    const user = await this.users.find(principal.username);
    if (principal.sessionId === undefined) {
      const refusal = user ? accountRefusal(user) : undefined;
      if (refusal) return { ended: { reason: refusal, message: `account ${refusal}` } };
      return this.untilExpiry(principal.tokenExpiresAt);
    }
    // The account's state first: a lock or disable also revokes, and the stream should say which.
    if (!user) return { ended: { reason: 'unknown_user', message: 'account removed' } };
    const refusal = accountRefusal(user);
    if (refusal) return { ended: { reason: refusal, message: `account ${refusal}` } };
    const session = await this.sessions.find(principal.sessionId);
    if (!session) return { ended: { reason: 'unknown_session', message: 'session ended' } };
    if (session.revokedAt) return { ended: { reason: 'revoked', message: 'session ended' } };
    return this.untilExpiry(Date.parse(session.expiresAt));
  }

  private untilExpiry(expiresAt: number | undefined): Liveness {
    if (expiresAt === undefined) return {};
    return this.settings.clock() >= expiresAt ? { ended: { reason: 'expired', message: 'session expired' } } : { endsAt: expiresAt };
  }

  private announceEnded(username: string): void {
    for (const listener of this.endedListeners) listener(username);
  }
}
