import type { RestClient } from '../kube/rest-client.js';

export interface HealthReport {
  status: 'healthy' | 'degraded';
  kubernetes: 'connected' | 'disconnected';
  llm: 'available' | 'unconfigured' | 'unavailable';
}

export type LlmCheck = () => Promise<HealthReport['llm']>;

/** Real health checks, cached for `ttlMs` so probes cost nothing. */
export class HealthService {
  private cached?: { at: number; report: HealthReport };
  private pending?: Promise<HealthReport>;
  llmCheck: LlmCheck = async () => 'unconfigured';

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
    const [kubernetes, llm] = await Promise.all([this.checkCluster(), this.llmCheck().catch(() => 'unavailable' as const)]);
    const status = kubernetes === 'connected' && llm !== 'unavailable' ? 'healthy' : 'degraded';
    const report: HealthReport = { status, kubernetes, llm };
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
