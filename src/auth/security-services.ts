import type { Logger } from 'pino';
import type { AuditRecorder } from '../audit/types.js';
import type { Config } from '../config/schema.js';
import { FixedWindowCounter } from './rate-window.js';
import type { Db } from '../store/database.js';
import { SessionsStore } from '../store/sessions-store.js';
import { UsersStore } from '../store/users-store.js';
import type { Clock } from '../clock.js';
import { configuredAuthMode, credentialVerifierFor } from './ldap-mode.js';
import { LoginService } from './login.js';
import { SessionManager } from './sessions.js';
import { loadSigningKey } from './signing-key.js';
import { TokenSigner } from './tokens.js';
import { UserAdmin } from './user-admin.js';

/** The security core's services: users, sessions and tokens, login, user administration, rate windows. */
export interface SecurityServices {
  /** The effective auth mode: `none` under --no-auth, else `--auth-mode`, else config `auth.mode`. */
  mode: AuthModeName;
  clock: Clock;
  users: UsersStore;
  sessionsStore: SessionsStore;
  sessions: SessionManager;
  login: LoginService;
  userAdmin: UserAdmin;
  /** Request counters of the rate limits (general, chat, login). */
  rateWindows: FixedWindowCounter;
}

export interface SecurityInputs {
  config: Config;
  database: Db;
  audit: AuditRecorder;
  dataDir: string;
  logger: Logger;
  clock: Clock;
  /** `--auth-mode` (overrides config `auth.mode`). */
  authMode?: AuthModeName;
  /** `--no-auth`. */
  noAuth?: boolean;
}

export type AuthModeName = Config['auth']['mode'];

/** Builds the security services (called from the composition root, src/app/compose.ts). */
export function buildSecurityServices(inputs: SecurityInputs): SecurityServices {
  const { config, database, audit, clock } = inputs;
  const jwt = config.authorization.jwt;
  const users = new UsersStore(database, () => new Date(clock()).toISOString());
  const sessionsStore = new SessionsStore(database);
  const signer = new TokenSigner(loadSigningKey(jwt.signing_key, inputs.dataDir, inputs.logger), jwt.token_duration, clock);
  const sessions = new SessionManager(users, sessionsStore, signer, { durationMs: jwt.token_duration, refreshWindowMs: jwt.refresh_window, clock });
  const rateWindows = new FixedWindowCounter(clock);
  const mode = inputs.noAuth ? 'none' : (inputs.authMode ?? configuredAuthMode(config));
  const verifier = credentialVerifierFor(mode, config, users, inputs.logger);
  const login = new LoginService(sessions, audit, { counter: rateWindows, limit: config.limits.login_attempts_per_minute, verifier });
  const roleNames = new Set(config.authorization.roles.map((role) => role.name));
  const userAdmin = new UserAdmin(users, sessionsStore, sessions, { audit, roleNames });
  return { mode, clock, users, sessionsStore, sessions, login, userAdmin, rateWindows };
}
