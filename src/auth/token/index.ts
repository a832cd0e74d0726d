import { TokenAuthenticator, type TokenOutcome } from './token-authenticator.js';
import { TokenCache } from './token-cache.js';
import { TokenReviewer } from './token-review.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config/schema.js';
import type { KubeClients } from '../../kube/clients.js';
import type { Logger } from 'pino';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface TokenAuthDeps {
  audit: AuditLog;
  clock: Clock;
  config: Config;
  kube: KubeClients;
  logger: Logger;
}

export { TokenAuthenticator } from './token-authenticator.js';

/** Builds the token-mode authenticator from config `auth.token` (reviews made with the service's own identity). */
export function buildTokenAuthenticator(deps: TokenAuthDeps): TokenAuthenticator {
  const settings = deps.config.auth.token;
  const reviewer = new TokenReviewer(deps.kube.forIdentity(undefined).rest, settings.audiences, deps.logger);
  const cache = new TokenCache<TokenOutcome>({ ttlMs: settings.cache_ttl, maxEntries: settings.cache_size, clock: deps.clock });
  return new TokenAuthenticator(reviewer, cache, { settings, audit: deps.audit, logger: deps.logger });
}
