import { z } from 'zod';
import { AppError } from '../../errors.js';
import { route, type RouteSpec } from '../types.js';
import { health } from '../schemas/api-schemas.js';
import type { HealthService } from '../health-service.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface HealthRouteDeps {
  health: HealthService;
  /** The effective auth mode (`none` adds `details.auth`). */
  security: { mode: string };
  /** The service's own connection to the home cluster's API server (readiness). */
  home: {
    kube: {
      forIdentity(identity: undefined): {
        rest: { raw(method: string, path: string, options: { accept: string; signal: AbortSignal }): Promise<{ text(): Promise<string> }> };
      };
    };
  };
  /** The local store (readiness runs one query). */
  database: { prepare(sql: string): { get(): unknown } };
}

/** Readiness answers within this time whatever the API server does (the chart's probe timeout is longer). */
const readinessTimeoutMs = 2_000;

const probe = z.object({ status: z.literal('ok') }).meta({ id: 'Probe' });
const readiness = z.object({ status: z.literal('ready'), kubernetes: z.literal('connected'), store: z.literal('ok') }).meta({ id: 'Readiness' });

/** Whether the service's own connection reaches the API server's /readyz within the time limit. */
async function apiServerReachable(deps: HealthRouteDeps): Promise<boolean> {
  try {
    const response = await deps.home.kube
      .forIdentity(undefined)
      .rest.raw('GET', '/readyz', { accept: 'text/plain', signal: AbortSignal.timeout(readinessTimeoutMs) });
    await response.text();
    return true;
  } catch {
    return false;
  }
}

function storeUsable(deps: HealthRouteDeps): boolean {
  try {
    deps.database.prepare('SELECT 1').get();
    return true;
  } catch {
    return false;
  }
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
      path: '/api/livez',
      permission: 'public',
      summary: 'Liveness: 200 {status: "ok"} while the process serves HTTP; never waits on the cluster or the LLM (the liveness probe)',
      response: probe,
      handler: async (context) => {
        context.body = { status: 'ok' };
      },
    }),
    route({
      method: 'GET',
      path: '/api/readyz',
      permission: 'public',
      summary:
        'Readiness: 200 when the API server answers and the store is usable, else 503; answers within 2 s and never checks the LLM (the readiness probe)',
      response: readiness,
      errors: [503],
      handler: async (context) => {
        const [kubernetes, store] = [await apiServerReachable(deps), storeUsable(deps)];
        if (!kubernetes || !store) {
          throw new AppError('UNAVAILABLE', 'not ready', { kubernetes: kubernetes ? 'connected' : 'disconnected', store: store ? 'ok' : 'unavailable' });
        }
        context.body = { status: 'ready', kubernetes: 'connected', store: 'ok' };
      },
    }),
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
