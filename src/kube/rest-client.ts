import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { Agent, fetch, type Dispatcher, type Response } from 'undici';
import { connectionError, mapKubeError } from './errors.js';
import { carryGroups, expandImpersonatedGroups } from './impersonation.js';

export interface RestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  accept?: string;
  contentType?: string;
  signal?: AbortSignal;
  /** Human name of the target used in error messages, e.g. `pods/web-1`. */
  target?: string;
}

/** Observes each call's verb and duration (for the metrics module). */
export type CallObserver = (verb: string, seconds: number, status: number) => void;

export interface RestClientOptions {
  /**
   * How long a call waits for the API server's answer (its status and headers) before it fails: the
   * cluster's own timeout (`cluster.timeout`), so a frozen API server never holds a request (ADR 0035).
   * Streams (watches, followed logs) are not cut: once answered, a body may idle as long as it likes.
   */
  answerTimeoutMs?: number;
}

/**
 * A small REST client for the API server with one pooled connection per identity,
 * taking TLS and credentials from a KubeConfig (including `as`, the impersonated user).
 */
export class RestClient {
  private dispatcher?: Dispatcher;
  private readonly server: string;

  constructor(
    readonly kubeConfig: KubeConfig,
    private readonly observe: CallObserver = () => undefined,
    private readonly options: RestClientOptions = {},
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    this.server = cluster.server.replace(/\/$/, '');
  }

  /** Builds the full URL for an API path. */
  url(path: string, query: RestOptions['query'] = {}): string {
    const url = new URL(this.server + path);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** Performs a request and returns the raw response (for streams); error statuses are thrown as AppError. */
  async raw(method: string, path: string, options: RestOptions = {}): Promise<Response> {
    const response = await this.send(method, path, options);
    if (!response.ok) {
      const text = await response.text();
      throw mapKubeError(response.status, safeJson(text), options.target ?? path);
    }
    return response;
  }

  /** Performs a request and returns the response whatever its status (a proxied service's own error bodies). */
  async answer(method: string, path: string, options: RestOptions = {}): Promise<Response> {
    return this.send(method, path, options);
  }

  /**
   * One call. A transport failure (a connection the API server reset or closed, e.g. a keep-alive
   * socket it dropped) is retried once on a fresh connection when the call is a read; the pool
   * itself never stays broken: undici drops a failed socket and dials anew (ADR 0027). A call the API
   * server did not answer in time is not sent again (its cluster's timeout is the whole wait).
   */
  private async send(method: string, path: string, options: RestOptions): Promise<Response> {
    try {
      return await this.sendOnce(method, path, options);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (!retriable(method) || unanswered(error)) throw connectionError(error);
      return this.sendOnce(method, path, options).catch((retryError: unknown) => {
        throw options.signal?.aborted ? retryError : connectionError(retryError);
      });
    }
  }

  private async sendOnce(method: string, path: string, options: RestOptions): Promise<Response> {
    const { headers, dispatcher } = await this.connection();
    headers.Accept = options.accept ?? 'application/json';
    if (options.body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
    const started = performance.now();
    try {
      return await fetch(this.url(path, options.query), { method, headers, body: encodeBody(options.body), signal: options.signal, dispatcher });
    } finally {
      this.observe(method.toLowerCase(), (performance.now() - started) / 1000, 0);
    }
  }

  /** Performs a request and parses the JSON answer. */
  async json<T>(method: string, path: string, options: RestOptions = {}): Promise<T> {
    const response = await this.raw(method, path, options);
    return (await response.json()) as T;
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    // Destroyed, not closed: a close waits for requests in flight, which a frozen API server never answers
    // (a removed cluster or a stopping service must not wait on it; its watches were stopped first).
    await this.dispatcher?.destroy();
  }

  private async connection(): Promise<{ headers: Record<string, string>; dispatcher: Dispatcher | undefined }> {
    const options: { headers: Record<string, string | string[]>; ca?: Buffer; cert?: Buffer; key?: Buffer; rejectUnauthorized?: boolean } = {
      headers: {},
    };
    await this.kubeConfig.applyToHTTPSOptions(options as never);
    this.dispatcher ??= new Agent({
      connect: this.server.startsWith('https')
        ? { ca: options.ca, cert: options.cert, key: options.key, rejectUnauthorized: options.rejectUnauthorized }
        : undefined,
      keepAliveTimeout: 30_000,
      connections: 32,
      // undici's default is 300 s; a cluster's calls wait no longer than its own timeout.
      ...(this.options.answerTimeoutMs ? { headersTimeout: this.options.answerTimeoutMs } : {}),
    }).compose(expandImpersonatedGroups);
    return { headers: carryGroups(options.headers), dispatcher: this.dispatcher };
  }
}

/** Whether a failed call is one the API server took but did not answer within the timeout. */
function unanswered(error: unknown): boolean {
  return (error as { cause?: { code?: string } } | undefined)?.cause?.code === 'UND_ERR_HEADERS_TIMEOUT';
}

/** Reads may be sent again after a transport failure; writes never (the API server may have applied them). */
function retriable(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

function encodeBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 500) };
  }
}
