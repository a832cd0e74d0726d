import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of the service; one registry, no globals. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly clusterCallDuration: Histogram<'verb'>;
  readonly cacheObjects: Gauge<'resource' | 'namespace'>;
  readonly toolRuns: Counter<'tool' | 'status'>;

  constructor(cacheSizes: () => { resource: string; namespace: string; size: number }[] = () => []) {
    collectDefaultMetrics({ register: this.registry, prefix: 'pilothouse_' });
    // prom-client names these gauges with a `_total` suffix, which Prometheus reserves for
    // counters (promtool check metrics fails on them); the process metrics cover them.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
      this.registry.removeSingleMetric(`pilothouse_${name}`);
    }
    this.httpDuration = new Histogram({
      name: 'pilothouse_http_request_duration_seconds',
      help: 'HTTP request duration by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.clusterCallDuration = new Histogram({
      name: 'pilothouse_kube_request_duration_seconds',
      help: 'Kubernetes API call duration by verb',
      labelNames: ['verb'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.cacheObjects = new Gauge({
      name: 'pilothouse_cache_objects',
      help: 'Objects held in watch-fed caches by resource and namespace scope',
      labelNames: ['resource', 'namespace'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const entry of cacheSizes()) this.set({ resource: entry.resource, namespace: entry.namespace }, entry.size);
      },
    });
    this.toolRuns = new Counter({
      name: 'pilothouse_tool_runs_total',
      help: 'AI and MCP tool runs by tool and result status',
      labelNames: ['tool', 'status'],
      registers: [this.registry],
    });
  }

  /** Observer handed to the REST client. */
  observeClusterCall = (verb: string, seconds: number): void => {
    this.clusterCallDuration.observe({ verb }, seconds);
  };
}
