import type { PrometheusConfig } from '../config/prometheus-schema.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { RestClient } from '../kube/rest-client.js';
import { DirectEndpoint, ServiceProxyEndpoint, type PrometheusEndpoint } from './prometheus-endpoint.js';
import { detectPrometheus } from './prometheus-detect.js';

/** Whether a cluster has history (a Prometheus), where it is, and why not. */
export interface HistoryStatus {
  available: boolean;
  /** `config` (url or service), `detected` (a Service found), `none`. */
  source: 'config' | 'detected' | 'none';
  /** Where Prometheus is (an origin or `service ns/name:port`; never credentials). */
  where?: string;
  /** Why history is not available. */
  reason?: string;
}

/** Prometheus' own answer: `{status, data, errorType, error, warnings}`. */
export interface PrometheusReply {
  status: 'success' | 'error';
  data?: { resultType: string; result: unknown };
  errorType?: string;
  error?: string;
  warnings?: string[];
}

export interface PrometheusSourceOptions {
  config: PrometheusConfig;
  /** Pilothouse's own namespace (Secrets of credentials). */
  ownNamespace: string;
  /** The service's own cluster client (detection, the service proxy, Secrets). */
  rest: () => RestClient;
  clock: Clock;
}

/** A reachability check waits at most this long (GET /api/clusters and /api/health wait for it). */
const checkTimeoutMs = 5_000;

/** How long a detection (or its failure) and a reachability check are kept. */
const keepMs = 60_000;

/**
 * One cluster's Prometheus (issue 36): configured (`url`, or `service` through the API server's service proxy) or
 * detected (src/prometheus/prometheus-detect.ts), kept for a minute; sends Prometheus API calls and reads its
 * answers. Built once per cluster scope.
 */
export class PrometheusSource {
  private found: { at: number; endpoint: PrometheusEndpoint | undefined; reason?: string } | undefined;
  private checked: { at: number; status: HistoryStatus } | undefined;
  private pending: Promise<HistoryStatus> | undefined;
  private readonly fixed: PrometheusEndpoint | undefined;

  constructor(private readonly options: PrometheusSourceOptions) {
    const { config } = options;
    if (config.url) this.fixed = new DirectEndpoint({ ...config, url: config.url }, options.ownNamespace, (secret) => this.readSecret(secret));
    else if (config.service) this.fixed = new ServiceProxyEndpoint(options.rest, { ...config.service, path: config.path }, 'config');
  }

  get config(): PrometheusConfig {
    return this.options.config;
  }

  /** The endpoint to use now, or why there is none. */
  async endpoint(): Promise<{ endpoint: PrometheusEndpoint | undefined; reason?: string }> {
    if (this.fixed) return { endpoint: this.fixed };
    if (!this.options.config.detect)
      return { endpoint: undefined, reason: 'no Prometheus is configured (prometheus.url or prometheus.service) and detection is off' };
    const now = this.options.clock();
    if (this.found && now - this.found.at < keepMs) return this.found;
    try {
      const service = await detectPrometheus(this.options.rest(), AbortSignal.timeout(this.options.config.timeout));
      const endpoint = service
        ? new ServiceProxyEndpoint(this.options.rest, { ...service, path: service.path || this.options.config.path }, 'detected')
        : undefined;
      this.found = {
        at: now,
        endpoint,
        reason: endpoint
          ? undefined
          : 'no Prometheus Service was found (labelled pilothouse.dev/prometheus=true, app.kubernetes.io/name=prometheus, or prometheus-operated)',
      };
    } catch (error) {
      this.found = { at: now, endpoint: undefined, reason: `Prometheus could not be looked for: ${error instanceof Error ? error.message : String(error)}` };
    }
    return this.found;
  }

  /** One call of Prometheus' HTTP API (`/api/v1/query`, `/api/v1/query_range`): its data, or the error it stands for. */
  async call(
    apiPath: string,
    parameters: URLSearchParams,
    timeoutMs = this.options.config.timeout,
  ): Promise<{ resultType: string; result: unknown; warnings?: string[] }> {
    const { endpoint, reason } = await this.endpoint();
    if (!endpoint)
      throw new AppError('UNAVAILABLE', `history is not available on this cluster: ${reason ?? 'no Prometheus'}`, { reason: 'history_unavailable' });
    const answer = await endpoint.get(apiPath, parameters, AbortSignal.timeout(timeoutMs));
    const reply = parseReply(answer.text);
    if (answer.status >= 200 && answer.status < 300 && reply?.status === 'success' && reply.data)
      return { ...reply.data, ...(reply.warnings ? { warnings: reply.warnings } : {}) };
    throw replyError(answer.status, reply, endpoint.where);
  }

  /** Whether history is available, checked with a tiny query at most once a minute. */
  async status(): Promise<HistoryStatus> {
    const now = this.options.clock();
    if (this.checked && now - this.checked.at < keepMs) return this.checked.status;
    this.pending ??= this.check().then((status) => {
      this.checked = { at: now, status };
      this.pending = undefined;
      return status;
    });
    return this.pending;
  }

  private async check(): Promise<HistoryStatus> {
    const { endpoint, reason } = await this.endpoint();
    if (!endpoint) return { available: false, source: 'none', reason };
    try {
      await this.call('/api/v1/query', new URLSearchParams({ query: 'vector(1)' }), checkTimeoutMs);
      return { available: true, source: endpoint.source, where: endpoint.where };
    } catch (error) {
      return { available: false, source: endpoint.source, where: endpoint.where, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  private async readSecret(secret: { namespace: string; name: string; key: string }): Promise<string> {
    const path = `/api/v1/namespaces/${encodeURIComponent(secret.namespace)}/secrets/${encodeURIComponent(secret.name)}`;
    const object = await this.options.rest().json<{ data?: Record<string, string> }>('GET', path, { target: `secrets/${secret.name}` });
    const value = object.data?.[secret.key];
    if (value === undefined)
      throw new AppError('UNAVAILABLE', `the Secret ${secret.namespace}/${secret.name} has no key "${secret.key}"`, { reason: 'prometheus_credentials' });
    return Buffer.from(value, 'base64').toString('utf8');
  }
}

function parseReply(text: string): PrometheusReply | undefined {
  try {
    return JSON.parse(text) as PrometheusReply;
  } catch {
    return undefined;
  }
}

/** Prometheus' refusal of a bad query is the caller's 400; anything else is Prometheus being unavailable (503). */
function replyError(status: number, reply: PrometheusReply | undefined, where: string): AppError {
  const message = reply?.error ?? `HTTP ${status}`;
  if (reply?.errorType === 'bad_data' || status === 400 || status === 422)
    return new AppError('VALIDATION_ERROR', `Prometheus refused the query: ${message}`, { reason: 'bad_query', field: 'query' });
  return new AppError('UNAVAILABLE', `Prometheus at ${where} answered an error: ${message}`, {
    reason: 'prometheus_error',
    errorType: reply?.errorType ?? null,
  });
}
