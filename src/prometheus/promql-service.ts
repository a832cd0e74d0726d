import { enforceQuery } from './enforce-query.js';
import type { MetricsView } from './metrics-view.js';
import type { PrometheusSource } from './prometheus-source.js';
import { checkSeries, type PromqlRequest } from './promql-request.js';

/** Prometheus' answer, in its own shape. */
export interface PromqlAnswer {
  resultType: string;
  result: unknown;
  warnings?: string[];
}

/**
 * Runs one PromQL query as the caller may: enforced to their view (src/prometheus/enforce-query.ts), sent to the
 * cluster's Prometheus as an instant or range query, the answer's series bounded.
 */
export async function runPromql(source: PrometheusSource, view: MetricsView, request: PromqlRequest): Promise<PromqlAnswer> {
  const query = enforceQuery(request.query, view, source.config.namespace_label);
  const timeout = `${Math.max(1, Math.floor(source.config.timeout / 1000))}s`;
  const parameters =
    'start' in request
      ? new URLSearchParams({ query, start: String(request.start), end: String(request.end), step: String(request.step), timeout })
      : new URLSearchParams({ query, timeout, ...(request.time === undefined ? {} : { time: String(request.time) }) });
  const answer = await source.call('start' in request ? '/api/v1/query_range' : '/api/v1/query', parameters);
  checkSeries(answer.result, source.config.limits);
  return answer;
}
