import { forbidden } from '../errors.js';
import { viewIncludes } from './enforce-matcher.js';
import { enforceQuery } from './enforce-query.js';
import type { HistoryAnswer, HistorySeriesAnswer } from './history-answer.js';
import { historySeriesOf, renderHistoryQuery } from './history-queries.js';
import type { HistoryRequest } from './history-request.js';
import type { MetricsView } from './metrics-view.js';
import type { PrometheusSource } from './prometheus-source.js';

interface MatrixSeries {
  values?: [number, string][];
}

/** The points of a range answer's first series (a sum: one series or none). */
function pointsOf(result: unknown): [number, number][] {
  const first = Array.isArray(result) ? (result[0] as MatrixSeries | undefined) : undefined;
  return (first?.values ?? []).map(([time, value]) => [time, Number(value)]);
}

/**
 * An object's history from Prometheus: each series' query (defaults or `prometheus.queries`) filled in,
 * enforced to the caller's view like any query (a namespace they may not read is refused; a node needs a list of
 * nodes, and counts only the pods of the caller's namespaces), sent as one range query each.
 */
export async function prometheusHistory(source: PrometheusSource, view: MetricsView, request: HistoryRequest): Promise<HistoryAnswer> {
  if (request.kind === 'node' && !viewIncludes(view, ''))
    throw forbidden("you may not read a node's usage (it needs a list of nodes)", { reason: 'nodes_not_visible', resource: 'nodes', verb: 'list' });
  const label = source.config.namespace_label;
  const definitions = historySeriesOf(request.kind, source.config.queries);
  const enforced = definitions.map((definition) => enforceQuery(renderHistoryQuery(definition.query, request), view, label));
  const series = await Promise.all(
    definitions.map(async (definition, index): Promise<HistorySeriesAnswer> => {
      const parameters = new URLSearchParams({
        query: enforced[index] ?? '',
        start: String(request.start),
        end: String(request.end),
        step: String(request.step),
      });
      const answer = await source.call('/api/v1/query_range', parameters);
      return { name: definition.name, unit: definition.unit, points: pointsOf(answer.result) };
    }),
  );
  const { kind, namespace, name, start, end, step } = request;
  return { kind, ...(namespace ? { namespace } : {}), name, source: 'prometheus', start, end, step, series };
}
