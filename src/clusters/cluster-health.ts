import { AppError } from '../errors.js';
import type { RestClient } from '../kube/rest-client.js';

/** A cluster's reachability as last probed (ADR 0035). */
export interface ClusterReachability {
  reachable: boolean;
  /** The API server's gitVersion, when it answered. */
  version?: string;
  /** Why it is unreachable: the failure's kind and the server's host, never credentials. */
  error?: string;
  /** When it was last checked (milliseconds since the epoch, on the injected clock). */
  checkedAt?: number;
}

export interface ClusterHealthOptions {
  /** How long one probe may take. */
  timeoutMs: number;
  /** Time between probes. */
  intervalMs?: number;
  now: () => number;
  /** Sees each probe's outcome (the `pilothouse_cluster_up` gauge). */
  observe?: (reachable: boolean) => void;
}

/**
 * Probes one cluster's API server (`GET /version`) on its own timer and timeout, so a slow or dead
 * cluster is known as down without any request waiting on it: a failed probe marks it down at once,
 * a good one up. Until the first probe ends the cluster counts as reachable (requests find out).
 */
export class ClusterHealth {
  private state: ClusterReachability = { reachable: true };
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<ClusterReachability> | undefined;

  constructor(
    private readonly rest: RestClient,
    private readonly server: string | undefined,
    private readonly options: ClusterHealthOptions,
  ) {}

  get current(): ClusterReachability {
    return this.state;
  }

  start(): void {
    if (this.timer) return;
    void this.probe();
    this.timer = setInterval(() => void this.probe(), this.options.intervalMs ?? 10_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Probes now (one probe at a time); resolves with the new state. */
  probe(): Promise<ClusterReachability> {
    this.probing ??= this.check().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  /** Throws 503 UNAVAILABLE (with `details.cluster`) when the last probe failed. */
  assertReachable(cluster: string): void {
    if (this.state.reachable) return;
    throw new AppError('UNAVAILABLE', `cluster "${cluster}" is unreachable: ${this.state.error ?? 'no answer'}`, { cluster });
  }

  private async check(): Promise<ClusterReachability> {
    try {
      const version = await this.rest.json<{ gitVersion?: string }>('GET', '/version', { signal: AbortSignal.timeout(this.options.timeoutMs) });
      this.state = { reachable: true, version: version.gitVersion, checkedAt: this.options.now() };
    } catch (error) {
      this.state = { reachable: false, error: describeFailure(error, this.server), checkedAt: this.options.now() };
    }
    this.options.observe?.(this.state.reachable);
    return this.state;
  }
}

/** The failure's kind and the server's host: no URL paths, tokens or certificate data. */
function describeFailure(error: unknown, server: string | undefined): string {
  const host = hostOf(server);
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer from ${host} in time`;
  // An answer with a status is the server's; without one it is the connection's (src/kube/errors.ts connectionError).
  if (error instanceof AppError && error.details.status !== undefined) return `${host} answered ${error.code}`;
  const code = transportCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return `no answer from ${host} in time`;
  return code ? `cannot connect to ${host} (${code})` : `cannot reach ${host}`;
}

/** The transport failure's code (`ECONNREFUSED`, ...), of a mapped connection error or a raw one. */
function transportCode(error: unknown): string | undefined {
  const code = error instanceof AppError ? error.details.transport : (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

function hostOf(server: string | undefined): string {
  if (!server) return 'the API server';
  try {
    return new URL(server).host;
  } catch {
    return 'the API server';
  }
}
