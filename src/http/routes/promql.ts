import { z } from 'zod';
import type { AuditRecorder } from '../../audit/types.js';
import { AppError } from '../../errors.js';
import { metricsViewOf } from '../../prometheus/metrics-access.js';
import { promqlBody, promqlRequestOf } from '../../prometheus/promql-request.js';
import { runPromql } from '../../prometheus/promql-service.js';
import { requestAuditFields } from '../audit-context.js';
import { kubeOf, scopeOf } from '../request-state.js';
import { route, type AppContext, type RouteSpec } from '../types.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface PromqlRouteDeps {
  audit: AuditRecorder;
}

/** Prometheus' own answer of a query (`data` of its `/api/v1/query` and `/api/v1/query_range`). */
export const promqlAnswer = z
  .object({ resultType: z.enum(['matrix', 'vector', 'scalar', 'string']), result: z.unknown(), warnings: z.array(z.string()).optional() })
  .meta({ id: 'PromqlAnswer' });

/** Records the query as a `query` row: the caller's text, instant or range, allowed or refused. */
function auditQuery(deps: PromqlRouteDeps, context: AppContext, details: Record<string, unknown>, error?: unknown): void {
  const refused = error instanceof AppError && error.code === 'FORBIDDEN';
  const outcome = error === undefined ? 'success' : `error: ${error instanceof Error ? error.message : String(error)}`;
  deps.audit.record({ ...requestAuditFields(context), action: 'query', resource: 'prometheus/query', details, decision: refused ? 'deny' : 'allow', outcome });
}

/** PromQL (issue 36): the caller's query run on the cluster's Prometheus, restricted to the namespaces where they may list pods. */
export function promqlRoutes(deps: PromqlRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'POST',
      path: '/api/prometheus/query',
      // A read sent as POST (the query can be long): the one policy decides inside, on the pods and nodes it would list.
      permission: 'authenticated',
      cluster: true,
      summary:
        "PromQL on the cluster's Prometheus: {query, time?} (instant) or {query, start, end, step} (range) → Prometheus' {resultType, result}; every selector is restricted to the namespaces where the caller may list pods",
      body: promqlBody,
      response: promqlAnswer,
      handler: async (context, { body }) => {
        const scope = scopeOf(context);
        const details = { query: body.query, type: body.start === undefined ? 'instant' : 'range' };
        try {
          const request = promqlRequestOf(body, scope.prometheus.config.limits);
          const view = await metricsViewOf(scope, context.state.principal, kubeOf(context));
          context.body = await runPromql(scope.prometheus, view, request);
        } catch (error) {
          auditQuery(deps, context, details, error);
          throw error;
        }
        auditQuery(deps, context, details);
      },
    }),
  ];
}
