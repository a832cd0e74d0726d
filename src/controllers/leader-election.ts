import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { RestClient } from '../kube/rest-client.js';
import { systemClock, type Clock } from '../clock.js';

/** A Kubernetes MicroTime (`2006-01-02T15:04:05.000000Z`): Lease times need six fraction digits. */
function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

interface Lease {
  metadata: { name: string; resourceVersion?: string };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string; acquireTime?: string; leaseTransitions?: number };
}

export interface LeaderCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(): void;
}

/**
 * Leader election with a coordination.k8s.io Lease, so several replicas can run and only one
 * reconciles. Optimistic concurrency (resourceVersion) decides races; a holder that stops
 * renewing loses the lease after `leaseDurationSeconds`.
 */
export class LeaderElector {
  readonly identity = `${hostname()}-${randomBytes(4).toString('hex')}`;
  private leading = false;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  private readonly namespace: string;
  private readonly leaseName: string;
  /** Decides when a held lease has expired and stamps renewals (tests inject a manual clock). */
  private readonly clock: Clock;
  private readonly timing: { leaseDurationSeconds: number; retryPeriodMs: number };

  constructor(
    private readonly rest: RestClient,
    lease: { namespace: string; name: string; leaseDurationSeconds?: number; retryPeriodMs?: number; clock?: Clock },
    private readonly callbacks: LeaderCallbacks,
    private readonly logger: Logger,
  ) {
    this.clock = lease.clock ?? systemClock;
    this.namespace = lease.namespace;
    this.leaseName = lease.name;
    this.timing = { leaseDurationSeconds: lease.leaseDurationSeconds ?? 15, retryPeriodMs: lease.retryPeriodMs ?? 2000 };
  }

  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    void this.tick();
  }

  /** Stops renewing and releases the lease so another replica takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (!this.leading) return;
    this.setLeading(false);
    const lease = await this.read().catch(() => undefined);
    if (lease?.spec.holderIdentity === this.identity) {
      await this.write({ ...lease, spec: { ...lease.spec, holderIdentity: '', renewTime: microTime(new Date(0)) } }).catch(() => undefined);
    }
  }

  private path(name = ''): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${this.namespace}/leases${name ? `/${name}` : ''}`;
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      this.setLeading(await this.tryAcquireOrRenew());
    } catch (error) {
      this.logger.debug({ err: String(error) }, 'leader election attempt failed');
      this.setLeading(false);
    }
    if (!this.stopped) {
      this.timer = setTimeout(() => void this.tick(), this.timing.retryPeriodMs);
      this.timer.unref();
    }
  }

  private setLeading(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    this.logger.info({ identity: this.identity, lease: this.leaseName, leading }, leading ? 'became leader' : 'lost leadership');
    if (leading) this.callbacks.onStartedLeading();
    else this.callbacks.onStoppedLeading();
  }

  private async read(): Promise<Lease | undefined> {
    try {
      return await this.rest.json<Lease>('GET', this.path(this.leaseName));
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    }
  }

  private write(lease: Lease): Promise<Lease> {
    return this.rest.json<Lease>('PUT', this.path(this.leaseName), { body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', ...lease } });
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date(this.clock());
    const spec = { holderIdentity: this.identity, leaseDurationSeconds: this.timing.leaseDurationSeconds, renewTime: microTime(now) };
    const lease = await this.read();
    if (!lease) {
      await this.rest.json('POST', this.path(), {
        body: {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.leaseName },
          spec: { ...spec, acquireTime: microTime(now), leaseTransitions: 0 },
        },
      });
      return true;
    }
    const holder = lease.spec.holderIdentity;
    const renewed = Date.parse(lease.spec.renewTime ?? '1970-01-01T00:00:00Z');
    const expired = renewed + (lease.spec.leaseDurationSeconds ?? 15) * 1000 < now.getTime();
    if (holder && holder !== this.identity && !expired) {
      this.logger.debug({ identity: this.identity, lease: this.leaseName, holder }, 'lease held by another replica');
      return false;
    }
    const transitions = (lease.spec.leaseTransitions ?? 0) + (holder === this.identity ? 0 : 1);
    const acquireTime = holder === this.identity ? lease.spec.acquireTime : microTime(now);
    await this.write({ metadata: lease.metadata, spec: { ...lease.spec, ...spec, acquireTime, leaseTransitions: transitions } });
    return true;
  }
}
