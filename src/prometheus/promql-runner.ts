import type { Clock } from '../clock.js';
import { parseDuration } from '../config/duration.js';
import { AppError, validation } from '../errors.js';
import type { KubeIdentityClient } from '../kube/clients.js';
import type { Principal } from '../rbac/principal.js';
import { metricsViewOf, type MetricsAccessScope } from './metrics-access.js';
import type { PrometheusSource } from './prometheus-source.js';
import { promqlRequestOf, type PromqlBody } from './promql-request.js';
import { runPromql, type PromqlAnswer } from './promql-service.js';

/** One cluster as the AI's promql tool needs it. */
export interface PromqlCluster extends MetricsAccessScope {
  name: string;
  prometheus: PrometheusSource;
  clientFor(principal: Principal): KubeIdentityClient;
}

/** A `query` audit row of the AI's query (the audit area's recorder, narrowed). */
export interface PromqlAuditRow {
  user: string;
  action: 'query';
  resource: string;
  cluster: string;
  details: Record<string, unknown>;
  decision: 'allow' | 'deny';
  outcome: string;
}

export interface PromqlRunnerDeps {
  /** The cluster a call names (absent: the home cluster); throws NOT_FOUND for an unknown one. */
  clusterOf(name: string | undefined): PromqlCluster;
  record(row: PromqlAuditRow): void;
  clock: Clock;
}

/** About this many points per series when the model names no step. */
const toolPoints = 60;

function bodyOf(query: { query: string; range?: string; step?: string }, now: number): PromqlBody {
  if (!query.range) return { query: query.query, time: now };
  const range = parseDuration(query.range);
  if (range === undefined || range <= 0) throw validation(`range "${query.range}" is not a duration (1h, 24h, 7d)`);
  const step = query.step ?? `${Math.max(15, Math.ceil(range / 1000 / toolPoints))}s`;
  return { query: query.query, start: now - range / 1000, end: now, step };
}

/**
 * The AI's PromQL (the `promql` tool of src/tools/builtin): the same rules as POST /api/prometheus/query, the
 * caller's namespaces enforced inside the query on the cluster the call names, bounds, and a `query` audit row.
 */
export function promqlRunner(deps: PromqlRunnerDeps): {
  run(principal: Principal, clusterName: string | undefined, query: { query: string; range?: string; step?: string }): Promise<PromqlAnswer>;
} {
  return {
    async run(principal, clusterName, query) {
      const cluster = deps.clusterOf(clusterName);
      const row = { user: principal.username, action: 'query' as const, resource: 'prometheus/query', cluster: cluster.name };
      const details = { query: query.query, type: query.range ? 'range' : 'instant', source: 'ai' };
      try {
        const request = promqlRequestOf(bodyOf(query, deps.clock() / 1000), cluster.prometheus.config.limits);
        const answer = await runPromql(cluster.prometheus, await metricsViewOf(cluster, principal, cluster.clientFor(principal)), request);
        deps.record({ ...row, details, decision: 'allow', outcome: 'success' });
        return answer;
      } catch (error) {
        const refused = error instanceof AppError && error.code === 'FORBIDDEN';
        deps.record({ ...row, details, decision: refused ? 'deny' : 'allow', outcome: `error: ${error instanceof Error ? error.message : String(error)}` });
        throw error;
      }
    },
  };
}
