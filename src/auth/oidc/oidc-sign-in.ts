import type { AuditRecorder } from '../../audit/types.js';
import { AppError, isAppError, unauthorized } from '../../errors.js';
import type { UserRecord, UsersStore } from '../../store/users-store.js';
import type { LoginResult } from '../login/login.js';
import { accountRefusal, type SessionManager, type SessionOrigin } from '../sessions/sessions.js';
import { identityFromClaims, type OidcIdentity, type OidcSettings } from './oidc-identity.js';

/** Where a sign-in came from, for the session list and the audit row. */
export interface SignInOrigin extends SessionOrigin {
  requestId?: string;
  /** `browser`, `device` or `bearer`. */
  flow: string;
}

export interface OidcAccountsDeps {
  users: Pick<UsersStore, 'upsertExternal' | 'find'>;
  sessions: SessionManager;
  audit: AuditRecorder;
  settings: OidcSettings;
}

/**
 * Turns verified ID token claims into a Pilothouse account (`source: oidc`, listed and lockable by
 * admins; role refreshed from the claims at each sign-in) and, for sign-ins, a Pilothouse session.
 * Every outcome is audited as `login` (`details.mode: oidc`).
 */
export class OidcAccounts {
  constructor(private readonly deps: OidcAccountsDeps) {}

  /** The account for the claims, refused when unmapped, locked, disabled or a local name. */
  async account(claims: Record<string, unknown>, origin: SignInOrigin): Promise<OidcIdentity> {
    const identity = this.identity(claims, origin);
    const before = await this.deps.users.find(identity.username);
    const user = await this.deps.users.upsertExternal({ username: identity.username, role: identity.role, email: identity.email }, 'oidc');
    // The identity provider now maps another role: streams opened under the old one end (src/auth/sessions/session-streams.ts).
    if (user && before?.source === 'oidc' && before.role !== user.role) this.deps.sessions.roleChanged(identity.username);
    if (!user)
      this.refuse(origin, identity.username, unauthorized('this user name belongs to an account that is not an SSO account', { reason: 'name_taken' }));
    const refusal = accountRefusal(user!);
    if (refusal) this.refuse(origin, identity.username, unauthorized(`account ${refusal}`, { reason: refusal }));
    return identity;
  }

  /** A Pilothouse session for a verified sign-in (browser or device flow). */
  async signIn(claims: Record<string, unknown>, origin: SignInOrigin): Promise<LoginResult> {
    const identity = await this.account(claims, origin);
    const user = (await this.deps.users.find(identity.username))!;
    const session = await this.deps.sessions.start(user, { source: origin.source, userAgent: origin.userAgent, groups: identity.groups });
    this.allow(origin, identity.username, { session_id: session.sessionId });
    return { token: session.token, expires_at: new Date(session.expiresAt).toISOString(), username: user.username, role: user.role };
  }

  /** The stored account (resource-level roles an admin assigned). */
  user(username: string): Promise<UserRecord | undefined> {
    return this.deps.users.find(username);
  }

  allow(origin: SignInOrigin, username: string, details: Record<string, unknown> = {}): void {
    this.deps.audit.record({ ...fields(origin, username), decision: 'allow', details: { mode: 'oidc', flow: origin.flow, ...details }, outcome: 'success' });
  }

  /** Audits a refused sign-in (`login`, deny, the reason) and throws the refusal. */
  refuse(origin: SignInOrigin, username: string, error: AppError): never {
    const reason = typeof error.details.reason === 'string' ? error.details.reason : error.code.toLowerCase();
    this.deps.audit.record({
      ...fields(origin, username),
      decision: 'deny',
      details: { mode: 'oidc', flow: origin.flow, reason },
      outcome: `refused: ${reason}`,
    });
    throw error;
  }

  private identity(claims: Record<string, unknown>, origin: SignInOrigin): OidcIdentity {
    try {
      return identityFromClaims(claims, this.deps.settings);
    } catch (error) {
      if (!isAppError(error)) throw error;
      // The refused user's best-known name for the audit row (the configured claim may be the missing one).
      const hint = [claims.preferred_username, claims.email, claims.sub].find((value) => typeof value === 'string' && value !== '');
      const name = hint ? `${this.deps.settings.username_prefix}${String(hint)}` : 'oidc';
      return this.refuse(origin, name, error);
    }
  }
}

function fields(origin: SignInOrigin, username: string): { user: string; action: 'login'; resource: string; source?: string; requestId?: string } {
  const user = username.slice(0, 128);
  return { user, action: 'login', resource: `user/${user}`, source: origin.source, requestId: origin.requestId };
}
