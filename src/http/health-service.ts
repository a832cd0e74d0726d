import type { RestClient } from '../kube/rest-client.js';
import type { SandboxStatus } from '../tools/builtin/bash-sandbox.js';

/**
 * Whether the bash tool can run: `disabled` by config, or enabled and its sandbox `available` (with its
 * /proc: `fresh`, or `empty` where the runtime refuses a fresh one) / `unavailable` (with the reason).
 */
export interface BashSandboxHealth {
  status: 'available' | 'unavailable' | 'disabled';
  proc?: 'fresh' | 'empty';
  reason?: string;
}

/** Whether the helm routes can run: `unavailable` (with the reason) when no helm binary can be run. */
export interface HelmHealth {
  status: 'available' | 'unavailable';
  reason?: string;
}

export interface HealthReport {
  status: 'healthy' | 'degraded';
  kubernetes: 'connected' | 'disconnected';
  llm: 'available' | 'unconfigured' | 'unavailable';
  /** Optional features; they do not change `status` (a bash tool that cannot run is off, not a failure). */
  details: { bashSandbox: BashSandboxHealth; helm?: HelmHealth; history?: HistoryHealth };
}

/** Whether the home cluster has usage history and PromQL (a Prometheus), where, and why not (issue 36). */
export interface HistoryHealth {
  status: 'available' | 'unavailable';
  source: 'config' | 'detected' | 'none';
  where?: string;
  reason?: string;
}

export type LlmCheck = () => Promise<HealthReport['llm']>;
export type BashSandboxCheck = () => Promise<BashSandboxHealth>;

/** The bash sandbox check for `tools.bash.enabled` and the sandbox's (cached) start probe. */
export function bashSandboxCheck(enabled: boolean, sandbox: { status(): Promise<SandboxStatus> }): BashSandboxCheck {
  return async () => {
    if (!enabled) return { status: 'disabled', reason: 'tools.bash.enabled is false' };
    const status = await sandbox.status();
    return status.available ? { status: 'available', proc: status.proc } : { status: 'unavailable', reason: status.reason };
  };
}

/** Real health checks, cached for `ttlMs` so probes cost nothing. */
export class HealthService {
  private cached?: { at: number; report: HealthReport };
  private pending?: Promise<HealthReport>;
  llmCheck: LlmCheck = async () => 'unconfigured';
  bashSandboxCheck: BashSandboxCheck = async () => ({ status: 'disabled' });
  /** The helm binary check (src/helm/helm-invocations.ts); absent until composed. */
  helmCheck?: () => HelmHealth;
  /** The home cluster's Prometheus check (src/prometheus/prometheus-source.ts); absent until composed. */
  historyCheck?: () => Promise<HistoryHealth>;

  constructor(
    private readonly rest: RestClient,
    private readonly ttlMs = 5000,
    private readonly clock: () => number = Date.now,
  ) {}

  async report(): Promise<HealthReport> {
    if (this.cached && this.clock() - this.cached.at < this.ttlMs) return this.cached.report;
    this.pending ??= this.check().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async check(): Promise<HealthReport> {
    const [kubernetes, llm, bashSandbox] = await Promise.all([
      this.checkCluster(),
      this.llmCheck().catch(() => 'unavailable' as const),
      this.bashSandboxCheck().catch((error: unknown) => ({ status: 'unavailable' as const, reason: (error as Error).message })),
    ]);
    const status = kubernetes === 'connected' && llm !== 'unavailable' ? 'healthy' : 'degraded';
    const helm = this.helmCheck?.();
    const history = await this.historyCheck?.().catch((error: unknown) => ({ status: 'unavailable' as const, source: 'none' as const, reason: String(error) }));
    const report: HealthReport = { status, kubernetes, llm, details: { bashSandbox: bashSandbox, ...(helm ? { helm } : {}), ...(history ? { history } : {}) } };
    this.cached = { at: this.clock(), report };
    return report;
  }

  private async checkCluster(): Promise<HealthReport['kubernetes']> {
    try {
      const response = await this.rest.raw('GET', '/readyz', { accept: 'text/plain', signal: AbortSignal.timeout(3000) });
      await response.text();
      return 'connected';
    } catch {
      return 'disconnected';
    }
  }
}
