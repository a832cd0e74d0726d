import { route, type RouteSpec } from '../types.js';
import type { HealthService } from '../health-service.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface HealthRouteDeps {
  health: HealthService;
}

/** GET /api/health: real checks of the cluster and the LLM, cached for a few seconds. */
export function healthRoutes(deps: HealthRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/health',
      permission: 'public',
      summary: 'Service health: status, kubernetes, llm',
      handler: async (context) => {
        const report = await deps.health.report();
        context.body = report;
      },
    }),
  ];
}
