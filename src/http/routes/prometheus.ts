import type { AppDeps } from '../../deps.js';
import { route, type RouteSpec } from '../types.js';

/**
 * GET /metrics in the Prometheus text format. Public only with `metrics.public: true`;
 * otherwise it needs a bearer token of any role (`view`), e.g. a Prometheus bearer_token_file.
 */
export function prometheusRoutes(deps: AppDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/metrics',
      permission: deps.config.metrics.public ? 'public' : 'view',
      summary: 'Prometheus metrics (process, HTTP durations by route, cluster call durations, cache sizes)',
      produces: 'text/plain',
      handler: async (context) => {
        context.type = deps.metrics.registry.contentType;
        context.body = await deps.metrics.registry.metrics();
      },
    }),
  ];
}
