import type { AppOptions } from '../http/pipeline/app.js';
import { ClientAddressResolver } from '../http/pipeline/client-address.js';
import { corsMiddleware } from '../http/pipeline/cors.js';
import { RateLimiter } from '../http/pipeline/rate-limit.js';
import type { AppContext } from '../http/types.js';
import { startRetention, type RetentionSchedule } from '../audit/retention.js';
import { ensureAdmin } from '../auth/login/admin-bootstrap.js';
import { NoAuthAuthenticator, type Authenticator } from '../auth/sessions/authenticator.js';
import { SessionStreams } from '../auth/sessions/session-streams.js';
import { bearerAuthenticator, type TokenAuthDeps } from './compose-security.js';
import type { Next } from 'koa';
import type { AuditLog } from '../audit/audit-log.js';
import type { SecurityServices } from '../auth/security-services.js';
import type { Logger } from 'pino';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface HttpSecurityDeps extends TokenAuthDeps {
  audit: AuditLog;
  logger: Logger;
  security: SecurityServices;
}

export interface HttpSecurityOptions {
  /** `--no-auth` (the effective mode, with `--auth-mode`, is `deps.security.mode`). */
  noAuth: boolean;
  adminPassword?: string;
  /** Where a generated admin password is shown once (stderr by default). */
  announce?: (text: string) => void;
}

export interface HttpSecurity {
  authenticator: Authenticator;
  /** Options for createApp: CORS, client address, rate limits. */
  appOptions: Partial<AppOptions>;
  stop(): void;
}

const day = 86_400_000;

async function chooseAuthenticator(deps: HttpSecurityDeps, options: HttpSecurityOptions): Promise<Authenticator> {
  const mode = deps.security.mode;
  const announce = options.announce ?? ((text: string) => void process.stderr.write(text));
  if (mode === 'none') {
    deps.logger.warn('authentication is disabled: every request acts as admin "anonymous" (development only)');
    if (options.adminPassword !== undefined) await ensureAdmin(deps.security.users, { ...options, logger: deps.logger, announce });
    return new NoAuthAuthenticator();
  }
  if (mode === 'token') {
    if (options.adminPassword !== undefined) deps.logger.warn('--admin-password is ignored in token mode (callers present Kubernetes tokens)');
    return bearerAuthenticator(deps);
  }
  // In ldap and oidc modes `admin` stays a local account: the break-glass login when the directory or provider is down.
  await ensureAdmin(deps.security.users, { adminPassword: options.adminPassword, logger: deps.logger, announce });
  // The one bearer check of every mode, shared with MCP server mode over HTTP (src/app/compose-security.ts).
  return bearerAuthenticator(deps);
}

/**
 * Assembles the HTTP security of `startService`: the authenticator for the auth mode, the admin
 * account, CORS, trusted client addresses, rate limits and audit retention (authorization: the
 * one policy, src/http/pipeline/route-policy.ts).
 */
export async function startHttpSecurity(deps: HttpSecurityDeps, options: HttpSecurityOptions): Promise<HttpSecurity> {
  const authenticator = await chooseAuthenticator(deps, options);
  const { config, security } = deps;
  const addresses = new ClientAddressResolver(config.server.trusted_proxies);
  const clientAddress = async (context: AppContext, next: Next): Promise<void> => {
    context.request.ip = addresses.resolve(context.req.socket.remoteAddress, context.get('X-Forwarded-For') || undefined);
    await next();
  };
  const limiter = new RateLimiter(security.rateWindows, {
    requestsPerMinute: config.limits.requests_per_minute,
    chatRequestsPerMinute: config.limits.chat_requests_per_minute,
  });
  const cors = corsMiddleware(config.server.cors_origins);
  const streams = new SessionStreams(security.sessions, security.clock);
  const schedules: RetentionSchedule[] = [
    startRetention(() => deps.audit.prune(config.audit.retention_days), 'audit', deps.logger),
    startRetention(
      () => security.sessionsStore.pruneEndedBefore(new Date(security.clock() - config.audit.retention_days * day).toISOString()),
      'sessions',
      deps.logger,
    ),
  ];
  return {
    authenticator,
    appOptions: {
      middlewares: [...(cors ? [cors] : []), clientAddress, limiter.middleware],
      afterAuthenticate: [limiter.afterAuthenticate],
      streams,
    },
    stop: () => {
      streams.stop();
      schedules.forEach((schedule) => schedule.stop());
      security.oidc.close();
    },
  };
}
