import type { AppDeps } from '../../deps.js';
import { TokenAuthenticator, type TokenOutcome } from './token-authenticator.js';
import { TokenCache } from './token-cache.js';
import { TokenReviewer } from './token-review.js';

export { TokenAuthenticator } from './token-authenticator.js';

/** Builds the token-mode authenticator from config `auth.token` (reviews made with the service's own identity). */
export function buildTokenAuthenticator(deps: AppDeps): TokenAuthenticator {
  const settings = deps.config.auth.token;
  const reviewer = new TokenReviewer(deps.kube.forIdentity(undefined).rest, settings.audiences, deps.logger);
  const cache = new TokenCache<TokenOutcome>({ ttlMs: settings.cache_ttl, maxEntries: settings.cache_size, clock: deps.clock });
  return new TokenAuthenticator(reviewer, cache, { settings, users: deps.security.users, audit: deps.audit, logger: deps.logger });
}
