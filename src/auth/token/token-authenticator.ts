import type { Logger } from 'pino';
import type { AuditRecorder } from '../../audit/types.js';
import type { Config } from '../../config/schema.js';
import { unauthorized } from '../../errors.js';
import type { AuthRequest, Authenticator } from '../sessions/authenticator.js';
import { bearerToken } from '../sessions/jwt-authenticator.js';
import type { Principal } from '../../rbac/principal.js';
import { accountRefusal } from '../sessions/sessions.js';
import type { UsersStore } from '../../store/users-store.js';
import { tokenKey, unverifiedExpiry, type TokenCache } from './token-cache.js';
import type { KubernetesUser, ReviewResult, TokenReviewer } from './token-review.js';
import { rolesFor } from './token-roles.js';

/** A cached review outcome: the principal, or why the token is refused. */
export type TokenOutcome = { principal: Principal; user: KubernetesUser } | { refusal: { message: string; reason: string; username?: string } };

export interface TokenAuthContext {
  settings: Config['auth']['token'];
  /** Where token identities are kept (`source: token`) so admins can see and lock them. */
  users: Pick<UsersStore, 'find' | 'upsertExternal'>;
  audit: AuditRecorder;
  logger: Logger;
}

interface RequestOrigin {
  source?: string;
  requestId?: string;
}

/**
 * Token mode: the caller presents a Kubernetes bearer token; a TokenReview says who it is and
 * `auth.token.role_mappings` gives the role. Outcomes (also refusals) are cached by the token's
 * SHA-256 for `auth.token.cache_ttl`; concurrent first uses share one review. The first use within
 * a cache window is audited as `login` (`details.mode: token`); the token is never logged or stored.
 * Known identities are kept in the users store (`source: token`), and a lock or disable there
 * refuses the identity on its next request, whatever the cache holds.
 */
export class TokenAuthenticator implements Authenticator {
  private readonly inFlight = new Map<string, Promise<TokenOutcome>>();

  constructor(
    private readonly reviewer: TokenReviewer,
    private readonly cache: TokenCache<TokenOutcome>,
    private readonly context: TokenAuthContext,
  ) {}

  async authenticate(context: AuthRequest): Promise<Principal | undefined> {
    const token = bearerToken(context);
    if (!token) return undefined;
    const key = tokenKey(token);
    const outcome = this.cache.get(key) ?? (await this.reviewOnce(token, key, { source: context.ip, requestId: context.state.requestId }));
    if ('refusal' in outcome) {
      const { message, reason, username } = outcome.refusal;
      throw unauthorized(message, username ? { reason, username } : { reason });
    }
    await this.refuseLockedOrDisabled(outcome.principal.username);
    return outcome.principal;
  }

  /** Checked on every request (one indexed read of the users store), so a lock takes effect at once on every replica. */
  private async refuseLockedOrDisabled(username: string): Promise<void> {
    const user = await this.context.users.find(username);
    const refusal = user ? accountRefusal(user) : undefined;
    if (refusal) throw unauthorized(`account ${refusal}`, { reason: refusal, username });
  }

  private reviewOnce(token: string, key: string, origin: RequestOrigin): Promise<TokenOutcome> {
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.review(token, key, origin).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async review(token: string, key: string, origin: RequestOrigin): Promise<TokenOutcome> {
    const outcome = this.outcomeOf(await this.reviewer.review(token));
    if ('principal' in outcome)
      await this.context.users.upsertExternal({ username: outcome.principal.username, role: outcome.principal.role, email: null }, 'token');
    this.cache.set(key, outcome, unverifiedExpiry(token));
    this.record(outcome, key.slice(0, 16), origin);
    return outcome;
  }

  private outcomeOf(result: ReviewResult): TokenOutcome {
    if (!result.authenticated) {
      const message = result.reason === 'wrong_audience' ? 'token is not valid for this audience' : 'invalid token';
      return { refusal: { message, reason: result.reason } };
    }
    const { user } = result;
    const mapped = rolesFor(user, this.context.settings);
    if (!mapped) return { refusal: { message: `no role mapping for Kubernetes user "${user.username}"`, reason: 'no_role_mapping', username: user.username } };
    return { principal: { username: user.username, role: mapped.role, roles: mapped.roles }, user };
  }

  /** One audit row per token and cache window for a known identity; unknown tokens are only logged. */
  private record(outcome: TokenOutcome, tokenId: string, origin: RequestOrigin): void {
    const { audit, logger } = this.context;
    if ('principal' in outcome) {
      const { principal, user } = outcome;
      const details = { mode: 'token', role: principal.role, groups: user.groups, tokenFingerprint: tokenId };
      audit.record({
        user: principal.username,
        action: 'login',
        resource: `user/${principal.username}`,
        details,
        decision: 'allow',
        ...origin,
        outcome: 'success',
      });
      return;
    }
    const { reason, username } = outcome.refusal;
    if (username) {
      const details = { mode: 'token', reason, tokenFingerprint: tokenId };
      audit.record({ user: username, action: 'login', resource: `user/${username}`, details, decision: 'deny', ...origin, outcome: `refused: ${reason}` });
      return;
    }
    logger.info({ reason, tokenId, source: origin.source }, 'token refused');
  }
}
