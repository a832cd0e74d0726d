import { route, type RouteSpec } from '../types.js';
import type { Config } from '../../config/schema.js';
import type { Metrics } from '../metrics.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface PrometheusRouteDeps {
  config: Config;
  metrics: Metrics;
}

/**
 * GET /metrics in the Prometheus text format. Public only with `metrics.public: true`;
 * otherwise it needs a bearer token of any role (`view`), e.g. a Prometheus bearer_token_file.
 */
export function prometheusRoutes(deps: PrometheusRouteDeps): RouteSpec[] {
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
