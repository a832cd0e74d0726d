import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { KubeIdentityClient } from './clients.js';
import { evictPod, planDrain, podGone, type DrainOptions, type PodReference } from './drain.js';
import { setUnschedulable } from './nodes.js';

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

/** One background drain: its events so far, and listeners for the ones to come. */
export class DrainJob {
  readonly events: DrainEvent[] = [];
  private readonly listeners = new Set<(event: DrainEvent) => void>();
  finishedAt?: number;

  constructor(
    readonly id: string,
    readonly node: string,
    readonly requester: string,
    private readonly clock: Clock,
  ) {}

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

/**
 * Runs drains in the background (kubectl drain semantics: cordon, refuse unmanaged / local-data /
 * DaemonSet pods unless allowed, evict the rest through the Eviction API). Finished jobs are kept
 * for `retentionMs` so late readers still get the result.
 */
export class DrainJobs {
  private readonly jobs = new Map<string, DrainJob>();

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly retentionMs = 60 * 60_000,
  ) {}

  start(client: KubeIdentityClient, node: string, options: DrainOptions, requester: string): DrainJob {
    this.sweep();
    const job = new DrainJob(randomUUID(), node, requester, this.clock);
    this.jobs.set(job.id, job);
    void this.run(job, client, options).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn({ node, err: message }, 'drain failed');
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

  private sweep(): void {
    const now = this.clock();
    for (const [id, job] of this.jobs) if (job.finishedAt && now - job.finishedAt > this.retentionMs) this.jobs.delete(id);
  }
}
