import type { Next } from 'koa';
import { AppError } from '../../errors.js';
import type { FixedWindowCounter, WindowState } from '../../auth/login/rate-window.js';
import type { AppContext, RouteSpec } from '../types.js';

export interface RateLimits {
  /** General limit per authenticated user (per client address when unauthenticated). */
  requestsPerMinute: number;
  /** Extra limit of `POST /api/chat/agentic` per user. */
  chatRequestsPerMinute: number;
}

function isChat(spec: Pick<RouteSpec, 'method' | 'path'>): boolean {
  return spec.method === 'POST' && spec.path === '/api/chat/agentic';
}

function setHeaders(context: AppContext, state: WindowState): void {
  context.set('X-RateLimit-Limit', String(state.limit));
  context.set('X-RateLimit-Remaining', String(state.remaining));
  // Unix time in seconds at which the window resets.
  context.set('X-RateLimit-Reset', String(Math.ceil(state.resetAt / 1000)));
}

function limited(state: WindowState): AppError {
  return new AppError('RATE_LIMITED', `rate limit of ${state.limit} requests per minute exceeded`, { retryAfter: state.retryAfterSeconds });
}

/**
 * Rate limits of the API: every `/api/` response carries `X-RateLimit-*`; over the limit a request
 * gets 429 RATE_LIMITED with `details.retryAfter` (the error middleware adds `Retry-After`).
 * Routes count per user after authentication; requests that never reach a route (bad token,
 * unknown path) count per client address.
 */
export class RateLimiter {
  private readonly counted = new WeakSet<object>();

  constructor(
    private readonly counter: FixedWindowCounter,
    private readonly limits: RateLimits,
  ) {}

  /** `afterAuthenticate` hook: counts the request for its user (or address) and the chat limit. */
  readonly afterAuthenticate = (context: AppContext, spec: RouteSpec): void => {
    this.counted.add(context);
    const key = context.state.principal ? `user:${context.state.principal.username}` : `address:${context.ip}`;
    const general = this.counter.hit(key, this.limits.requestsPerMinute);
    const chat = isChat(spec) ? this.counter.hit(`chat:${key}`, this.limits.chatRequestsPerMinute) : undefined;
    const shown = chat && (chat.remaining < general.remaining || !chat.allowed) ? chat : general;
    setHeaders(context, shown);
    if (!general.allowed) throw limited(general);
    if (chat && !chat.allowed) throw limited(chat);
  };

  /** Middleware counting per client address the API requests the route hook did not see. */
  readonly middleware = async (context: AppContext, next: Next): Promise<void> => {
    if (!context.path.startsWith('/api/')) return next();
    try {
      await next();
    } catch (error) {
      if (this.counted.has(context)) throw error;
      const state = this.countAddress(context);
      throw state.allowed ? error : limited(state);
    }
    if (!this.counted.has(context)) this.countAddress(context);
  };

  private countAddress(context: AppContext): WindowState {
    const state = this.counter.hit(`address:${context.ip}`, this.limits.requestsPerMinute);
    setHeaders(context, state);
    return state;
  }
}
