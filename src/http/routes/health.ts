import { route, type RouteSpec } from '../types.js';
import { health } from '../api-schemas.js';
import type { HealthService } from '../health-service.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface HealthRouteDeps {
  health: HealthService;
  /** The effective auth mode (`none` adds `details.auth`). */
  security: { mode: string };
}

/** Said by the health endpoint (`details.auth`) whenever authentication is off (`--no-auth` or `auth.mode: none`). */
const authDisabled = {
  status: 'disabled',
  warning: 'authentication is OFF (--no-auth or auth.mode: none): every request acts as admin "anonymous"; development only',
} as const;

/** GET /api/health: real checks of the cluster and the LLM, cached for a few seconds. */
export function healthRoutes(deps: HealthRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/health',
      permission: 'public',
      summary: 'Service health: status, kubernetes, llm (and details.auth "disabled" when authentication is off)',
      response: health,
      handler: async (context) => {
        const report = await deps.health.report();
        context.body = deps.security.mode === 'none' ? { ...report, details: { ...report.details, auth: authDisabled } } : report;
      },
    }),
  ];
}
