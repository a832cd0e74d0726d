import type { Next } from 'koa';
import type { AppContext } from '../types.js';

const exposedHeaders = [
  'X-Request-Id',
  'X-Refreshed-Token',
  'X-Token-Expires-At',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
].join(', ');

/**
 * CORS for the origins in `server.cors_origins` (`*` allows any). Without configured origins no
 * CORS header is ever sent (returns undefined). Bearer tokens, not cookies: no credentials mode.
 */
export function corsMiddleware(origins: readonly string[]): ((context: AppContext, next: Next) => Promise<void>) | undefined {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  return async (context, next) => {
    const origin = context.get('Origin');
    if (!origin || !(allowed.has('*') || allowed.has(origin))) return next();
    context.vary('Origin');
    context.set('Access-Control-Allow-Origin', origin);
    context.set('Access-Control-Expose-Headers', exposedHeaders);
    if (context.method === 'OPTIONS' && context.get('Access-Control-Request-Method')) {
      context.set('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
      context.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Request-Id');
      context.set('Access-Control-Max-Age', '600');
      context.status = 204;
      return;
    }
    await next();
  };
}
