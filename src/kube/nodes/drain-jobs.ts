import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { KubeIdentityClient } from '../clients.js';
import { evictPod, planDrain, podGone, type DrainOptions, type PodReference } from './drain.js';
import { setUnschedulable } from './nodes.js';

/** A drain's shared row: its progress so far, written by the replica running it. */
export interface DrainJobRecord {
  id: string;
  node: string;
  requester: string;
  /** The cluster of the node (ADR 0035); null for rows written before clusters were recorded (the home cluster's). */
  cluster: string | null;
  events: unknown[];
  /** When the running replica last said it is alive (epoch ms). */
  heartbeatAt: number;
  finishedAt: number | null;
}

/** Where drain jobs are shared by replicas (src/store/drain-jobs-store.ts implements it; composed in src/app). */
export interface DrainJobsStore {
  insert(job: Pick<DrainJobRecord, 'id' | 'node' | 'requester' | 'cluster' | 'heartbeatAt'>): Promise<void>;
  find(id: string): Promise<DrainJobRecord | undefined>;
  progress(id: string, events: readonly unknown[], at: number, finished: boolean): Promise<boolean>;
  heartbeat(ids: readonly string[], at: number): Promise<void>;
  abandon(id: string, events: readonly unknown[], at: number, staleBefore: number): Promise<boolean>;
  prune(before: number): Promise<number>;
}

type Failure = PodReference & { reason: string };

/** Progress events of a drain (the SSE payloads of `GET /api/node/drain/{id}`). */
export type DrainEvent =
  | { type: 'cordoned'; node: string }
  | { type: 'pod'; namespace: string; name: string; status: 'evicted' | 'failed' | 'skipped'; reason?: string }
  | {
      type: 'result';
      node: string;
      status: 'completed' | 'failed' | 'refused';
      evicted: number;
      failed: Failure[];
      refused: Failure[];
      skipped: Failure[];
      message?: string;
    };

/** Whose drain of what: the node, the cluster it is in, and the user who started it. */
export interface DrainOwner {
  node: string;
  requester: string;
  cluster?: string;
}

/** One background drain: its events so far, and listeners for the ones to come. */
export class DrainJob {
  readonly events: DrainEvent[] = [];
  private readonly listeners = new Set<(event: DrainEvent) => void>();
  finishedAt?: number;

  constructor(
    readonly id: string,
    readonly owner: DrainOwner,
    private readonly clock: Clock,
  ) {}

  get node(): string {
    return this.owner.node;
  }

  get requester(): string {
    return this.owner.requester;
  }

  /** The cluster of the node; undefined for a job recorded before clusters were (the home cluster's). */
  get cluster(): string | undefined {
    return this.owner.cluster;
  }

  get done(): boolean {
    return this.finishedAt !== undefined;
  }

  emit(event: DrainEvent): void {
    this.events.push(event);
    if (event.type === 'result') this.finishedAt = this.clock();
    for (const listener of this.listeners) listener(event);
  }

  /** Listens for new events; returns the unsubscribe function. */
  subscribe(listener: (event: DrainEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listening(): boolean {
    return this.listeners.size > 0;
  }
}

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Evicts one pod, retrying while a PDB blocks it, then waits for it to be gone; before `deadline`. */
async function drainPod(
  client: KubeIdentityClient,
  pod: PodReference,
  options: DrainOptions,
  until: { deadline: number; clock: Clock },
): Promise<string | undefined> {
  const { deadline, clock } = until;
  let blocked = false;
  while (clock() < deadline) {
    const outcome = await evictPod(client, pod, options.gracePeriodSeconds);
    if (outcome === 'gone') return undefined;
    if (outcome === 'evicted') return waitGone(client, pod, deadline, clock);
    blocked = true;
    await sleep(1000);
  }
  return blocked ? 'eviction blocked by a PodDisruptionBudget until the timeout' : 'timed out';
}

async function waitGone(client: KubeIdentityClient, pod: PodReference, deadline: number, clock: Clock): Promise<string | undefined> {
  while (clock() < deadline) {
    if (await podGone(client, pod)) return undefined;
    await sleep(300);
  }
  return 'evicted but not deleted before the timeout';
}

/** How often the replica running drains says so, and after how long without that another replica ends them. */
export const drainHeartbeatMs = 3_000;
export const drainStaleMs = 15_000;
const followPollMs = 500;

/** The result of a drain whose replica stopped (crash, kill) before it finished. */
function abandonedResult(node: string, events: readonly DrainEvent[]): DrainEvent {
  const pods = events.filter((event) => event.type === 'pod');
  return {
    type: 'result',
    node,
    status: 'failed',
    evicted: pods.filter((event) => event.status === 'evicted').length,
    failed: pods.filter((event) => event.status === 'failed').map(({ namespace, name, reason }) => ({ namespace, name, reason: reason ?? 'failed' })),
    refused: [],
    skipped: pods.filter((event) => event.status === 'skipped').map(({ namespace, name, reason }) => ({ namespace, name, reason: reason ?? 'skipped' })),
    message: `abandoned: the replica running this drain stopped before it finished (no heartbeat for ${drainStaleMs / 1000} s); the node stays cordoned`,
  };
}

/**
 * Runs drains in the background (kubectl drain semantics: cordon, refuse unmanaged / local-data /
 * DaemonSet pods unless allowed, evict the rest through the Eviction API). Each job's progress is a
 * row of the shared store (ADR 0032) that the replica running it writes at every event and beats
 * every {@link drainHeartbeatMs}; any other replica follows the row, and ends the job as failed
 * (abandoned) once its heartbeat is {@link drainStaleMs} old. Finished jobs are kept for `retentionMs`.
 */
export class DrainJobs {
  private readonly jobs = new Map<string, DrainJob>();
  private readonly writes = new Map<string, Promise<unknown>>();
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly store: DrainJobsStore,
    private readonly retentionMs = 60 * 60_000,
  ) {
    this.heartbeat = setInterval(() => void this.beat(), drainHeartbeatMs);
    this.heartbeat.unref();
  }

  /** Starts draining `owner.node` of `owner.cluster` with `client` (the requester's identity on that cluster). */
  async start(client: KubeIdentityClient, owner: DrainOwner, options: DrainOptions): Promise<DrainJob> {
    await this.sweep();
    const { node, requester } = owner;
    const job = new DrainJob(randomUUID(), owner, this.clock);
    await this.store.insert({ id: job.id, node, requester, cluster: owner.cluster ?? null, heartbeatAt: this.clock() });
    this.jobs.set(job.id, job);
    job.subscribe(() => this.persist(job));
    void this.run(job, client, options).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn({ node, err: message }, 'drain failed');
      job.emit({ type: 'result', node, status: 'failed', evicted: 0, failed: [], refused: [], skipped: [], message });
    });
    return job;
  }

  /** A drain started on this replica, or followed from its shared row. */
  async get(id: string): Promise<DrainJob | undefined> {
    const local = this.jobs.get(id);
    if (local) return local;
    const record = await this.store.find(id);
    if (!record) return undefined;
    const owner = { node: record.node, requester: record.requester, ...(record.cluster === null ? {} : { cluster: record.cluster }) };
    const job = new DrainJob(record.id, owner, this.clock);
    for (const event of record.events) job.emit(event as DrainEvent);
    if (!job.done) void this.follow(job);
    return job;
  }

  /**
   * Stops beating and storing: a drain still running here (its cluster connections are going away with the
   * service) leaves its last stored progress, and the other replicas end it as abandoned once its heartbeat is stale.
   */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
  }

  /** Writes the job's progress in event order (each write carries every event so far). */
  private persist(job: DrainJob): void {
    if (this.closed) return;
    const previous = this.writes.get(job.id) ?? Promise.resolve();
    const write = previous
      .then(() => this.store.progress(job.id, job.events, this.clock(), job.done))
      .catch((error: unknown) => this.logger.warn({ drain: job.id, err: error instanceof Error ? error.message : String(error) }, 'drain progress not stored'));
    this.writes.set(job.id, write);
    if (job.done) void write.then(() => this.writes.delete(job.id));
  }

  private async beat(): Promise<void> {
    const running = [...this.jobs.values()].filter((job) => !job.done).map((job) => job.id);
    await this.store.heartbeat(running, this.clock()).catch(() => undefined);
  }

  /** Copies another replica's progress into `job` while someone listens; ends it when that replica went silent. */
  private async follow(job: DrainJob): Promise<void> {
    for (let tick = 0; !job.done; tick += 1) {
      await sleep(followPollMs);
      if (!job.listening && tick > 2) return;
      const record = await this.store.find(job.id).catch(() => undefined);
      if (!record) continue;
      for (const event of record.events.slice(job.events.length)) job.emit(event as DrainEvent);
      if (job.done || record.heartbeatAt >= this.clock() - drainStaleMs) continue;
      const result = abandonedResult(job.node, job.events);
      if (await this.store.abandon(job.id, [...job.events, result], this.clock(), this.clock() - drainStaleMs)) job.emit(result);
    }
  }

  private async run(job: DrainJob, client: KubeIdentityClient, options: DrainOptions): Promise<void> {
    await setUnschedulable(client, job.node, true);
    job.emit({ type: 'cordoned', node: job.node });
    const plan = await planDrain(client, job.node, options);
    for (const pod of plan.skipped) job.emit({ type: 'pod', ...pod, status: 'skipped' });
    const result = { node: job.node, evicted: 0, failed: [] as Failure[], refused: plan.refused, skipped: plan.skipped };
    if (plan.refused.length > 0) {
      return job.emit({ type: 'result', ...result, status: 'refused', message: 'some pods cannot be drained without the matching flags; nothing was evicted' });
    }
    const deadline = this.clock() + options.timeoutSeconds * 1000;
    await Promise.all(
      plan.evict.map(async (pod) => {
        const failure = await drainPod(client, pod, options, { deadline, clock: this.clock }).catch((error: unknown) =>
          error instanceof Error ? error.message : String(error),
        );
        if (failure) result.failed.push({ ...pod, reason: failure });
        else result.evicted += 1;
        job.emit({ type: 'pod', ...pod, status: failure ? 'failed' : 'evicted', ...(failure ? { reason: failure } : {}) });
      }),
    );
    job.emit({ type: 'result', ...result, status: result.failed.length > 0 ? 'failed' : 'completed' });
  }

  private async sweep(): Promise<void> {
    const now = this.clock();
    for (const [id, job] of this.jobs) if (job.finishedAt && now - job.finishedAt > this.retentionMs) this.jobs.delete(id);
    await this.store.prune(now - this.retentionMs);
  }
}
