import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { KubeIdentityClient } from './clients.js';
import { evictPod, planDrain, podGone, type DrainOptions, type PodReference } from './drain.js';
import { setUnschedulable } from './nodes.js';

type Failure = PodReference & { reason: string };

/** Progress events of a drain (the SSE payloads of `GET /api/node/drain/{id}`). */
export type DrainEvent =
  | { type: 'cordoned'; node: string }
  | { type: 'pod'; namespace: string; name: string; status: 'evicted' | 'failed' | 'skipped'; reason?: string }
  | { type: 'result'; node: string; status: 'completed' | 'failed' | 'refused'; evicted: number; failed: Failure[]; refused: Failure[]; skipped: Failure[]; message?: string };

/** One background drain: its events so far, and listeners for the ones to come. */
export class DrainJob {
  readonly events: DrainEvent[] = [];
  private readonly listeners = new Set<(event: DrainEvent) => void>();
  finishedAt?: number;

  constructor(
    readonly id: string,
    readonly node: string,
    readonly requester: string,
  ) {}

  get done(): boolean {
    return this.finishedAt !== undefined;
  }

  emit(event: DrainEvent): void {
    this.events.push(event);
    if (event.type === 'result') this.finishedAt = Date.now();
    for (const listener of this.listeners) listener(event);
  }

  /** Listens for new events; returns the unsubscribe function. */
  subscribe(listener: (event: DrainEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Evicts one pod, retrying while a PDB blocks it, then waits for it to be gone; before `deadline`. */
async function drainPod(client: KubeIdentityClient, pod: PodReference, options: DrainOptions, deadline: number): Promise<string | undefined> {
  let blocked = false;
  while (Date.now() < deadline) {
    const outcome = await evictPod(client, pod, options.gracePeriodSeconds);
    if (outcome === 'gone') return undefined;
    if (outcome === 'evicted') return waitGone(client, pod, deadline);
    blocked = true;
    await sleep(1000);
  }
  return blocked ? 'eviction blocked by a PodDisruptionBudget until the timeout' : 'timed out';
}

async function waitGone(client: KubeIdentityClient, pod: PodReference, deadline: number): Promise<string | undefined> {
  while (Date.now() < deadline) {
    if (await podGone(client, pod)) return undefined;
    await sleep(300);
  }
  return 'evicted but not deleted before the timeout';
}

/**
 * Runs drains in the background (kubectl drain semantics: cordon, refuse unmanaged / local-data /
 * DaemonSet pods unless allowed, evict the rest through the Eviction API). Finished jobs are kept
 * for `retentionMs` so late readers still get the result.
 */
export class DrainJobs {
  private readonly jobs = new Map<string, DrainJob>();

  constructor(
    private readonly logger: Logger,
    private readonly retentionMs = 60 * 60_000,
  ) {}

  start(client: KubeIdentityClient, node: string, options: DrainOptions, requester: string): DrainJob {
    this.sweep();
    const job = new DrainJob(randomUUID(), node, requester);
    this.jobs.set(job.id, job);
    void this.run(job, client, options).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn({ node, error: message }, 'drain failed');
      job.emit({ type: 'result', node, status: 'failed', evicted: 0, failed: [], refused: [], skipped: [], message });
    });
    return job;
  }

  get(id: string): DrainJob | undefined {
    return this.jobs.get(id);
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
    const deadline = Date.now() + options.timeoutSeconds * 1000;
    await Promise.all(
      plan.evict.map(async (pod) => {
        const failure = await drainPod(client, pod, options, deadline).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
        if (failure) result.failed.push({ ...pod, reason: failure });
        else result.evicted += 1;
        job.emit({ type: 'pod', ...pod, status: failure ? 'failed' : 'evicted', ...(failure ? { reason: failure } : {}) });
      }),
    );
    job.emit({ type: 'result', ...result, status: result.failed.length > 0 ? 'failed' : 'completed' });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, job] of this.jobs) if (job.finishedAt && now - job.finishedAt > this.retentionMs) this.jobs.delete(id);
  }
}
