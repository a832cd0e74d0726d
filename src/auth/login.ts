import type { AuditRecorder } from '../audit/types.js';
import type { RoleName } from '../config/schema.js';
import { AppError, unauthorized } from '../errors.js';
import type { FixedWindowCounter } from '../http/rate-window.js';
import type { UserRecord, UsersStore } from '../store/users-store.js';
import { generatePassword, hashPassword, verifyPassword } from './passwords.js';
import { accountRefusal, type SessionManager } from './sessions.js';

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
  counter: FixedWindowCounter;
  /** Failed attempts allowed per address+username per window. */
  limit: number;
}

/**
 * Local login. Wrong user and wrong password give the same 401; locked/disabled accounts are
 * named only after a correct password. Failed attempts count toward a per address+username limit.
 */
export class LoginService {
  private decoy?: Promise<string>;

  constructor(
    private readonly users: UsersStore,
    private readonly sessions: SessionManager,
    private readonly audit: AuditRecorder,
    private readonly throttle: LoginThrottle,
  ) {}

  async login(attempt: LoginAttempt): Promise<LoginResult> {
    const username = attempt.username ?? adminUsername;
    const key = `${attempt.source ?? ''}\u0000${username}`;
    const window = this.throttle.counter.peek(key, this.throttle.limit);
    if (!window.allowed) {
      this.refuse(attempt, username, 'throttled');
      throw new AppError('RATE_LIMITED', 'too many login attempts; try again later', { retry_after: window.retryAfterSeconds });
    }
    const user = await this.checkPassword(username, attempt.password);
    if (!user) {
      this.throttle.counter.hit(key, this.throttle.limit);
      this.refuse(attempt, username, 'invalid_credentials');
      throw unauthorized(invalidCredentials);
    }
    const refusal = accountRefusal(user);
    if (refusal) {
      this.refuse(attempt, username, refusal);
      throw unauthorized(`account ${refusal}`, { reason: refusal });
    }
    this.throttle.counter.reset(key);
    const session = await this.sessions.start(user, attempt);
    this.audit.record({ ...auditFields(attempt, username), decision: 'allow', details: { session_id: session.sessionId }, outcome: 'success' });
    return { token: session.token, expires_at: new Date(session.expiresAt).toISOString(), username: user.username, role: user.role };
  }

  /** The user when the password matches; a decoy hash is checked for unknown users so timing reveals nothing. */
  private async checkPassword(username: string, password: string): Promise<UserRecord | undefined> {
    const user = this.users.find(username);
    const hash = user?.source === 'local' ? user.passwordHash : null;
    if (!hash) {
      this.decoy ??= hashPassword(generatePassword());
      await verifyPassword(password, await this.decoy);
      return undefined;
    }
    return (await verifyPassword(password, hash)) ? user : undefined;
  }

  private refuse(attempt: LoginAttempt, username: string, reason: string): void {
    this.audit.record({ ...auditFields(attempt, username), decision: 'deny', details: { reason }, outcome: `refused: ${reason}` });
  }
}

function auditFields(attempt: LoginAttempt, username: string): { user: string; action: 'login'; resource: string; source?: string; requestId?: string } {
  const user = username.slice(0, 128);
  return { user, action: 'login', resource: `user/${user}`, source: attempt.source, requestId: attempt.requestId };
}
