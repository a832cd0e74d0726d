import type Router from '@koa/router';
import type { Next } from 'koa';
import { AppError } from '../../errors.js';
import type { AppContext } from '../types.js';

/**
 * A path the API serves asked with a method it does not: 405 with `Allow` (OPTIONS: 204 with
 * `Allow`), in the one error body. Other paths fall through (404, or the web UI's files).
 */
export function methodGuard(router: Router<never>) {
  return async (context: AppContext, next: Next): Promise<void> => {
    await next();
    if (context.status !== 404 || context.body !== undefined) return;
    const matched = router.match(context.path, context.method);
    if (matched.route) return;
    const allowed = [...new Set(matched.path.flatMap((layer) => layer.methods))];
    if (allowed.length === 0) return;
    context.set('Allow', allowed.join(', '));
    if (context.method === 'OPTIONS') {
      context.status = 204;
      return;
    }
    throw new AppError('VALIDATION_ERROR', `${context.method} is not allowed here; allowed: ${allowed.join(', ')}`, {
      reason: 'method_not_allowed',
      allow: allowed,
    });
  };
}
