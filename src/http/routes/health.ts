import type { AppDeps } from '../../deps.js';
import { route, type RouteSpec } from '../types.js';
import { health } from '../api-schemas.js';

/** GET /api/health: real checks of the cluster and the LLM, cached for a few seconds. */
export function healthRoutes(deps: AppDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/health',
      permission: 'public',
      summary: 'Service health: status, kubernetes, llm',
      response: health,
      handler: async (context) => {
        const report = await deps.health.report();
        context.body = report;
      },
    }),
  ];
}
