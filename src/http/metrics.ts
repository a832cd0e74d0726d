import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ControllerObserver, ReconcileOutcome } from '../controllers/reconciler.js';

const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Where a policy denial happened: an HTTP route, the tools' policy proxy, or MCP server mode. */
export type DenialPath = 'routes' | 'proxy' | 'mcp';

/** How a tool-call approval ended. */
export type ApprovalOutcome = 'requested' | 'approved' | 'rejected' | 'timed_out';

/**
 * Prometheus metrics of the service; one registry, no globals. Names follow the kube-prometheus
 * conventions (`pilothouse_` prefix, `_total` counters, `_seconds` durations); the chart's
 * PrometheusRule and Grafana dashboard (charts/pilothouse/files) read these names.
 */
export class Metrics implements ControllerObserver {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly clusterCallDuration: Histogram<'verb' | 'cluster'>;
  readonly cacheObjects: Gauge<'resource' | 'cluster'>;
  /** 1 while a cluster's last reachability probe succeeded, else 0 (ADR 0035). */
  readonly clusterUp: Gauge<'cluster'>;
  readonly toolRuns: Counter<'tool' | 'status'>;
  readonly reconciles: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly reconcileDuration: Histogram<'controller'>;
  readonly leader: Gauge;
  readonly approvals: Counter<'outcome'>;
  readonly llmRequests: Counter<'provider'>;
  readonly llmErrors: Counter<'provider'>;
  /** Tokens of model calls by kind: input (cached part included), output, cached_input. */
  readonly llmTokens: Counter<'provider' | 'model' | 'kind'>;
  /** Cost of model calls from config `llm.prices`. */
  readonly llmCost: Counter<'provider' | 'model'>;
  readonly logins: Counter<'mode'>;
  readonly loginFailures: Counter<'mode'>;
  readonly rateLimited: Counter<'route'>;
  readonly policyDenials: Counter<'path'>;
  /** Investigations that reached a final phase (issue 37). */
  readonly investigations: Counter<'cluster' | 'phase' | 'trigger'>;

  readonly problems: Gauge<'cluster' | 'analyzer' | 'severity'>;

  constructor(
    cacheSizes: () => { resource: string; size: number; cluster: string }[] = () => [],
    problemCounts: () => { cluster: string; analyzer: string; severity: string; count: number }[] = () => [],
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'pilothouse_' });
    // prom-client names these gauges with a `_total` suffix, which Prometheus reserves for
    // counters (promtool check metrics fails on them); the process metrics cover them.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
      this.registry.removeSingleMetric(`pilothouse_${name}`);
    }
    this.httpDuration = this.histogram(
      'pilothouse_http_request_duration_seconds',
      'HTTP request duration by route template and status',
      ['method', 'route', 'status'],
      durationBuckets,
    );
    this.clusterCallDuration = this.histogram(
      'pilothouse_kube_request_duration_seconds',
      'Kubernetes API call duration by verb and cluster',
      ['verb', 'cluster'],
      durationBuckets,
    );
    this.cacheObjects = new Gauge({
      name: 'pilothouse_cache_objects',
      // No namespace and nothing of the caller: /metrics may be public (security review four, finding 7).
      help: 'Objects held in watch-fed caches by cluster and resource, summed over every cache of the resource',
      labelNames: ['resource', 'cluster'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const entry of cacheSizes()) this.set({ resource: entry.resource, cluster: entry.cluster }, entry.size);
      },
    });
    this.problems = new Gauge({
      name: 'pilothouse_problems',
      help: 'Findings of the live diagnosis (docs/user-guide/problems.md) by cluster, analyzer and severity; ignored ones not counted',
      labelNames: ['cluster', 'analyzer', 'severity'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const entry of problemCounts()) this.set({ cluster: entry.cluster, analyzer: entry.analyzer, severity: entry.severity }, entry.count);
      },
    });
    this.clusterUp = new Gauge({
      name: 'pilothouse_cluster_up',
      help: "1 while the cluster's API server answered its last reachability probe, else 0",
      labelNames: ['cluster'],
      registers: [this.registry],
    });
    this.toolRuns = this.counter('pilothouse_tool_runs_total', 'AI and MCP tool runs by tool and result status', ['tool', 'status']);
    const registers = [this.registry];
    this.reconciles = this.counter('pilothouse_controller_reconciles_total', 'Reconcile passes by controller and result (success, requeue, error, terminal)', [
      'controller',
      'result',
    ]);
    this.reconcileErrors = this.counter('pilothouse_controller_reconcile_errors_total', 'Reconcile passes that failed (retried or terminal) by controller', [
      'controller',
    ]);
    this.reconcileDuration = this.histogram(
      'pilothouse_controller_reconcile_duration_seconds',
      'Reconcile pass duration by controller',
      ['controller'],
      durationBuckets,
    );
    this.leader = new Gauge({ name: 'pilothouse_leader', help: '1 while this replica holds the controller Lease (runs the controllers), else 0', registers });
    this.approvals = this.counter('pilothouse_approvals_total', 'Tool-call approvals by outcome (requested, approved, rejected, timed_out)', ['outcome']);
    this.llmRequests = this.counter('pilothouse_llm_requests_total', 'Requests to the LLM provider by provider', ['provider']);
    this.llmErrors = this.counter('pilothouse_llm_errors_total', 'Failed requests to the LLM provider by provider', ['provider']);
    this.llmTokens = this.counter('pilothouse_llm_tokens_total', 'Tokens of LLM calls by provider, model and kind (input includes cached_input; output)', [
      'provider',
      'model',
      'kind',
    ]);
    this.llmCost = this.counter('pilothouse_llm_cost_total', 'Cost of LLM calls by provider and model, priced by config llm.prices (per million tokens)', [
      'provider',
      'model',
    ]);
    this.logins = this.counter('pilothouse_logins_total', 'Successful logins by auth mode', ['mode']);
    this.loginFailures = this.counter('pilothouse_login_failures_total', 'Refused logins by auth mode', ['mode']);
    this.rateLimited = this.counter('pilothouse_rate_limited_requests_total', 'Requests refused with 429 by the rate limiter, by route template', ['route']);
    this.policyDenials = this.counter('pilothouse_policy_denials_total', 'Requests the policy denied, by path (routes, proxy, mcp)', ['path']);
    this.investigations = this.counter(
      'pilothouse_investigations_total',
      'Investigations that concluded, failed or were skipped, by cluster, phase and trigger (alert, api, kubectl)',
      ['cluster', 'phase', 'trigger'],
    );
    this.leader.set(0);
  }

  /** A histogram of this registry. */
  private histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /** A counter of this registry. */
  private counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** ControllerObserver: one reconcile pass. */
  reconciled(controller: string, outcome: ReconcileOutcome, seconds: number): void {
    this.reconciles.inc({ controller, result: outcome });
    if (outcome === 'error' || outcome === 'terminal') this.reconcileErrors.inc({ controller });
    this.reconcileDuration.observe({ controller }, seconds);
  }

  /** ControllerObserver: leadership gained or lost. */
  leading(isLeader: boolean): void {
    this.leader.set(isLeader ? 1 : 0);
  }

  /** The observer handed to one cluster's REST clients. */
  clusterCallObserver(cluster: string): (verb: string, seconds: number) => void {
    return (verb, seconds) => this.clusterCallDuration.observe({ verb, cluster }, seconds);
  }
}
