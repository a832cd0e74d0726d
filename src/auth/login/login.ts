import type { AuditRecorder } from '../../audit/types.js';
import type { RoleName } from '../../config/schema.js';
import { AppError, isAppError, unauthorized } from '../../errors.js';
import type { AsyncWindowCounter } from './rate-window.js';
import type { UserRecord } from '../../store/users-store.js';
import type { CredentialVerifier } from './credential-verifier.js';
import { accountRefusal, type SessionManager } from '../sessions/sessions.js';

/** The account `{password}` alone logs in as. */
export const adminUsername = 'admin';
const invalidCredentials = 'invalid username or password';

export interface LoginAttempt {
  username?: string;
  password: string;
  source?: string;
  userAgent?: string;
  requestId?: string;
}

export interface LoginResult {
  token: string;
  expires_at: string;
  username: string;
  role: RoleName;
}

export interface LoginThrottle {
  /** Shared by every replica when the store is PostgreSQL. */
  counter: AsyncWindowCounter;
  /** Attempts allowed per address+username per window; a successful login clears the count. */
  limit: number;
}

export interface LoginSettings extends LoginThrottle {
  /** Checks the credentials: local password hashes, or the LDAP directory (`--auth-mode ldap`). */
  verifier: CredentialVerifier;
}

/**
 * Password login, checked by the verifier (local password hashes, or the LDAP directory). Wrong
 * user and wrong password give the same 401; locked/disabled accounts are named only after a
 * correct password. Every attempt counts toward a per address+username limit (the username as the
 * verifier normalises it) and a successful one clears it.
 */
export class LoginService {
  constructor(
    private readonly sessions: SessionManager,
    private readonly audit: AuditRecorder,
    private readonly settings: LoginSettings,
  ) {}

  async login(attempt: LoginAttempt): Promise<LoginResult> {
    const username = this.settings.verifier.normalizeUsername(attempt.username ?? adminUsername);
    const key = `login:${JSON.stringify([attempt.source ?? '', username])}`;
    // The attempt is counted (one atomic statement) before the credentials are checked, so parallel guesses cannot all pass.
    const window = await this.settings.counter.hit(key, this.settings.limit);
    if (!window.allowed) {
      this.refuse(attempt, username, 'throttled');
      throw new AppError('RATE_LIMITED', 'too many login attempts; try again later', { retryAfter: window.retryAfterSeconds });
    }
    const user = await this.verify(attempt, username);
    if (!user) {
      this.refuse(attempt, username, 'invalid_credentials');
      throw unauthorized(invalidCredentials);
    }
    const refusal = accountRefusal(user);
    if (refusal) {
      this.refuse(attempt, user.username, refusal);
      throw unauthorized(`account ${refusal}`, { reason: refusal });
    }
    await this.settings.counter.reset(key);
    const session = await this.sessions.start(user, attempt);
    this.audit.record({ ...auditFields(attempt, user.username), decision: 'allow', details: { session_id: session.sessionId }, outcome: 'success' });
    return { token: session.token, expires_at: new Date(session.expiresAt).toISOString(), username: user.username, role: user.role };
  }

  /** The verifier's answer; its refusals (e.g. `no_role_mapping`) are audited (the attempt is already counted). */
  private async verify(attempt: LoginAttempt, username: string): Promise<UserRecord | undefined> {
    try {
      return await this.settings.verifier.verify(username, attempt.password);
    } catch (error) {
      if (!isAppError(error)) throw error;
      this.refuse(attempt, username, typeof error.details.reason === 'string' ? error.details.reason : error.code.toLowerCase());
      throw error;
    }
  }

  private refuse(attempt: LoginAttempt, username: string, reason: string): void {
    this.audit.record({ ...auditFields(attempt, username), decision: 'deny', details: { reason }, outcome: `refused: ${reason}` });
  }
}

function auditFields(attempt: LoginAttempt, username: string): { user: string; action: 'login'; resource: string; source?: string; requestId?: string } {
  const user = username.slice(0, 128);
  return { user, action: 'login', resource: `user/${user}`, source: attempt.source, requestId: attempt.requestId };
}
