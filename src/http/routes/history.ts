import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import { historyAnswer } from '../../prometheus/history-answer.js';
import { historyQuery, historyRequestOf } from '../../prometheus/history-request.js';
import { prometheusHistory } from '../../prometheus/history-service.js';
import { metricsViewOf } from '../../prometheus/metrics-access.js';
import { kubeOf, scopeOf } from '../request-state.js';
import { route, type RouteSpec } from '../types.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface HistoryRouteDeps {
  clock: Clock;
}

/** Usage history of one object (issue 36): from the cluster's Prometheus, else this replica's short in-memory history. */
export function historyRoutes(deps: HistoryRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/metrics/history',
      permission: 'view',
      cluster: true,
      summary:
        'Usage history of a pod, workload, node or PVC: {kind, namespace?, name, source, start, end, step, series: [{name, unit, points: [[t, v]]}]} over range (15m..14d), restricted to what the caller may read',
      query: historyQuery,
      response: historyAnswer,
      handler: async (context, { query }) => {
        const scope = scopeOf(context);
        const request = historyRequestOf(query, deps.clock());
        const view = await metricsViewOf(scope, context.state.principal, kubeOf(context));
        const { endpoint, reason } = await scope.prometheus.endpoint();
        if (endpoint) {
          context.body = await prometheusHistory(scope.prometheus, view, request);
          return;
        }
        if (!scope.prometheus.config.fallback.enabled)
          throw new AppError('UNAVAILABLE', `history is not available on this cluster: ${reason ?? 'no Prometheus'}`, { reason: 'history_unavailable' });
        scope.usageMemory.start();
        context.body = scope.usageMemory.history(request, view);
      },
    }),
  ];
}
