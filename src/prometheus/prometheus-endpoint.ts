import { readFile } from 'node:fs/promises';
import { Agent, fetch, type Dispatcher } from 'undici';
import type { PrometheusConfig } from '../config/prometheus-schema.js';
import { AppError } from '../errors.js';
import type { RestClient } from '../kube/rest-client.js';

/** Prometheus' answer to one API call, as it sent it: its status and body text. */
export interface EndpointAnswer {
  status: number;
  text: string;
}

/** One way to reach a cluster's Prometheus HTTP API; `where` says which (for status and errors; no credentials). */
export interface PrometheusEndpoint {
  readonly where: string;
  readonly source: 'config' | 'detected';
  get(apiPath: string, parameters: URLSearchParams, signal: AbortSignal): Promise<EndpointAnswer>;
}

/** Reads a Secret's key with the service's own identity. */
export type SecretReader = (secret: { namespace: string; name: string; key: string }) => Promise<string>;

type Credential = NonNullable<NonNullable<PrometheusConfig['auth']>['bearer']>;

const unreachable = (where: string, error: unknown): AppError =>
  new AppError('UNAVAILABLE', `Prometheus at ${where} cannot be reached`, {
    reason: 'prometheus_unreachable',
    cause: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error),
  });

const joinPath = (...parts: string[]): string =>
  `/${parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;

/** Prometheus at a URL of its own, with optional bearer or basic credentials and CA. */
export class DirectEndpoint implements PrometheusEndpoint {
  readonly source = 'config' as const;
  readonly where: string;
  private dispatcher: Dispatcher | undefined;

  constructor(
    private readonly config: PrometheusConfig & { url: string },
    private readonly ownNamespace: string,
    private readonly readSecret: SecretReader,
  ) {
    this.where = new URL(config.url).origin;
  }

  async get(apiPath: string, parameters: URLSearchParams, signal: AbortSignal): Promise<EndpointAnswer> {
    const url = new URL(this.config.url);
    url.pathname = joinPath(url.pathname, this.config.path, apiPath);
    url.search = parameters.toString();
    const headers = { Accept: 'application/json', ...(await this.authorization()) };
    try {
      const response = await fetch(url, { headers, signal, dispatcher: await this.connection() });
      return { status: response.status, text: await response.text() };
    } catch (error) {
      throw unreachable(this.where, error);
    }
  }

  private async connection(): Promise<Dispatcher | undefined> {
    const caFile = this.config.auth?.ca_file;
    if (!caFile) return undefined;
    this.dispatcher ??= new Agent({ connect: { ca: await readFile(caFile) } });
    return this.dispatcher;
  }

  private async credential(source: Credential): Promise<string> {
    if (source.file) return (await readFile(source.file, 'utf8')).trim();
    const secret = source.secret;
    if (!secret) return '';
    return (await this.readSecret({ namespace: secret.namespace ?? this.ownNamespace, name: secret.name, key: secret.key })).trim();
  }

  private async authorization(): Promise<Record<string, string>> {
    const auth = this.config.auth;
    if (auth?.bearer) return { Authorization: `Bearer ${await this.credential(auth.bearer)}` };
    if (auth?.basic) {
      const password = await this.credential(auth.basic.password);
      return { Authorization: `Basic ${Buffer.from(`${auth.basic.username}:${password}`).toString('base64')}` };
    }
    return {};
  }
}

/** A Service reached through the API server's service proxy, with the service's own cluster identity. */
export class ServiceProxyEndpoint implements PrometheusEndpoint {
  readonly where: string;

  constructor(
    private readonly rest: () => RestClient,
    private readonly service: { namespace: string; name: string; port: string | number; path: string },
    readonly source: 'config' | 'detected',
  ) {
    this.where = `service ${service.namespace}/${service.name}:${service.port}`;
  }

  async get(apiPath: string, parameters: URLSearchParams, signal: AbortSignal): Promise<EndpointAnswer> {
    const { namespace, name, port, path } = this.service;
    const proxy = `/api/v1/namespaces/${encodeURIComponent(namespace)}/services/${encodeURIComponent(`${name}:${port}`)}/proxy`;
    const query = Object.fromEntries(parameters.entries());
    try {
      const response = await this.rest().answer('GET', proxy + joinPath(path, apiPath), { query, signal, target: this.where });
      return { status: response.status, text: await response.text() };
    } catch (error) {
      throw unreachable(this.where, error);
    }
  }
}
