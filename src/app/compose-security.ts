import type { Logger } from 'pino';
import type { AuditLog } from '../audit/audit-log.js';
import type { AuditRecorder } from '../audit/types.js';
import { configuredAuthMode, credentialVerifierFor } from '../auth/ldap/ldap-mode.js';
import { LoginService } from '../auth/login/login.js';
import { FixedWindowCounter, SharedWindowCounter } from '../auth/login/rate-window.js';
import type { AuthModeName, SecurityServices } from '../auth/security-services.js';
import { SessionManager } from '../auth/sessions/sessions.js';
import { loadSigningKey } from '../auth/sessions/signing-key.js';
import { TokenAuthenticator, type TokenOutcome } from '../auth/token/token-authenticator.js';
import { TokenCache } from '../auth/token/token-cache.js';
import { TokenReviewer } from '../auth/token/token-review.js';
import { TokenSigner } from '../auth/sessions/tokens.js';
import { UserAdmin } from '../auth/users/user-admin.js';
import type { Authenticator } from '../auth/sessions/authenticator.js';
import { JwtAuthenticator } from '../auth/sessions/jwt-authenticator.js';
import { OidcService } from '../auth/oidc/oidc-service.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/schema.js';
import type { KubeClients } from '../kube/clients.js';
import { RateWindowsStore } from '../store/rate-windows-store.js';
import type { SqlClient } from '../store/sql-client.js';
import { SealedTokensStore } from '../store/sealed-tokens-store.js';
import { SessionsStore } from '../store/sessions-store.js';
import { UsersStore } from '../store/users-store.js';

export interface SecurityInputs {
  config: Config;
  /** The shared store: users, sessions and the login throttle (SQLite or PostgreSQL). */
  store: SqlClient;
  audit: AuditRecorder;
  dataDir: string;
  logger: Logger;
  clock: Clock;
  /** `--auth-mode` (overrides config `auth.mode`). */
  authMode?: AuthModeName;
  /** `--no-auth`. */
  noAuth?: boolean;
}

/** Builds the security services (part of the composition root). */
export function buildSecurityServices(inputs: SecurityInputs): SecurityServices {
  const { config, store, audit, clock } = inputs;
  const jwt = config.authorization.jwt;
  const users = new UsersStore(store, () => new Date(clock()).toISOString());
  const sessionsStore = new SessionsStore(store);
  const signingKey = loadSigningKey(jwt, inputs.dataDir, inputs.logger);
  const signer = new TokenSigner(signingKey, jwt.token_duration, clock);
  const sessions = new SessionManager(users, sessionsStore, signer, {
    durationMs: jwt.token_duration,
    refreshWindowMs: jwt.refresh_window,
    maxSessionMs: jwt.max_session,
    clock,
  });
  const rateWindows = new FixedWindowCounter(clock);
  const loginWindows = new SharedWindowCounter(new RateWindowsStore(store), clock);
  const mode = inputs.noAuth ? 'none' : (inputs.authMode ?? configuredAuthMode(config));
  const verifier = credentialVerifierFor(mode, config, users, inputs.logger);
  const login = new LoginService(sessions, audit, { counter: loginWindows, limit: config.limits.login_attempts_per_minute, verifier });
  const roleNames = new Set(config.authorization.roles.map((role) => role.name));
  const userAdmin = new UserAdmin(users, sessionsStore, sessions, { audit, roleNames, lockableSource: lockableSource(mode) });
  const oidc = new OidcService({ settings: config.oidc, users, sessions, audit, clock, tokens: new SealedTokensStore(store), signingKey });
  return { mode, clock, users, sessionsStore, sessions, login, userAdmin, rateWindows, loginWindows, oidc };
}

/** Accounts of the mode's outside identities, which admins may lock like local ones. */
function lockableSource(mode: AuthModeName): string | undefined {
  if (mode === 'token') return 'token';
  return mode === 'oidc' ? 'oidc' : undefined;
}

/** What the token-mode authenticator is built from. */
export interface TokenAuthDeps {
  audit: AuditLog;
  clock: Clock;
  config: Config;
  /** The home cluster: TokenReviews are made there with the service's own identity. */
  home: { kube: KubeClients };
  logger: Logger;
  /** Token identities are kept as accounts (`source: token`) so they can be locked. */
  security: { users: UsersStore };
}

/** Builds the token-mode authenticator from config `auth.token` (reviews made with the service's own identity). */
export function buildTokenAuthenticator(deps: TokenAuthDeps): TokenAuthenticator {
  const settings = deps.config.auth.token;
  const reviewer = new TokenReviewer(deps.home.kube.forIdentity(undefined).rest, settings.audiences, deps.logger);
  const cache = new TokenCache<TokenOutcome>({ ttlMs: settings.cache_ttl, maxEntries: settings.cache_size, clock: deps.clock });
  return new TokenAuthenticator(reviewer, cache, { settings, users: deps.security.users, audit: deps.audit, logger: deps.logger });
}

/** What {@link bearerAuthenticator} is built from. */
export interface BearerAuthDeps extends Omit<TokenAuthDeps, 'security'> {
  security: SecurityServices;
}

/**
 * Who presents a bearer credential, for every auth mode but `none`: Kubernetes tokens (TokenReview,
 * accounts lockable) in token mode; else Pilothouse session JWTs (revocation, lock and disable checked
 * on every request), plus the issuer's ID tokens in oidc mode. The web API and the MCP server mode's
 * HTTP transport both use it, so a caller is known the same way on either.
 */
export async function bearerAuthenticator(deps: BearerAuthDeps): Promise<Authenticator> {
  const mode = deps.security.mode;
  if (mode === 'token') return buildTokenAuthenticator(deps);
  const sessions = new JwtAuthenticator(deps.security.sessions);
  if (mode !== 'oidc') return sessions;
  await deps.security.oidc.start();
  return deps.security.oidc.authenticator(sessions);
}
