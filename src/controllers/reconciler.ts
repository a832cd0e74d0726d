import type { Logger } from 'pino';
import { realQueueScheduler, type QueueScheduler } from './queue-scheduler.js';

/** What a reconcile pass asks for next. */
export interface Result {
  /** Reconcile this key again after this many milliseconds (e.g. to expire a TTL). */
  requeueAfter?: number;
}

/** A spec that can never work: logged and not retried until the object changes. */
export class TerminalError extends Error {
  override name = 'TerminalError';
}

/** A level-based reconciler: given a key, read current state, converge, write status. */
export interface Reconciler {
  readonly name: string;
  reconcile(key: string): Promise<Result>;
  /** Called when its controller starts (this replica leads). */
  start?(): void;
  /** Releases what the reconciler holds in this process (listeners, work in progress) when its controller stops. */
  stop?(): void;
}

/** How a reconcile pass ended, for metrics. */
export type ReconcileOutcome = 'success' | 'requeue' | 'error' | 'terminal';

/** Watches controllers for metrics (src/http/metrics.ts implements it). */
export interface ControllerObserver {
  reconciled(controller: string, outcome: ReconcileOutcome, seconds: number): void;
  leading(isLeader: boolean): void;
}

/** A WorkQueue's options; `observer` sees every pass; `scheduler` is its time (real timers unless a test passes its own). */
export interface QueueOptions {
  concurrency: number;
  baseDelayMs: number;
  maxDelayMs: number;
  observer?: ControllerObserver;
  scheduler?: QueueScheduler;
}

interface Backoff {
  failures: number;
}

/**
 * A work queue of object keys (controller-runtime style): keys are de-duplicated, one key is
 * never reconciled twice at once, errors requeue with exponential backoff, `requeueAfter` schedules
 * a later pass, and a TerminalError stops retries until the key is added again by an event.
 */
export class WorkQueue {
  private readonly pending = new Set<string>();
  private readonly active = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, () => void>();
  private readonly backoff = new Map<string, Backoff>();
  private stopped = false;
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly reconciler: Reconciler,
    private readonly logger: Logger,
    private readonly options: QueueOptions = {
      concurrency: 2,
      baseDelayMs: 500,
      maxDelayMs: 5 * 60_000,
      scheduler: realQueueScheduler,
    },
  ) {}

  private get scheduler(): QueueScheduler {
    return this.options.scheduler ?? realQueueScheduler;
  }

  /** Queues a key now (events call this). */
  add(key: string): void {
    if (this.stopped) return;
    this.clearTimer(key);
    if (this.active.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.pending.add(key);
    this.pump();
  }

  /** Queues a key after a delay. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    this.clearTimer(key);
    const cancel = this.scheduler.schedule(() => {
      this.timers.delete(key);
      this.add(key);
    }, delayMs);
    this.timers.set(key, cancel);
  }

  stop(): void {
    this.stopped = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    this.pending.clear();
  }

  /** Resolves when nothing is pending or running (for tests and shutdown). */
  idle(): Promise<void> {
    if (this.running === 0 && this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private clearTimer(key: string): void {
    this.timers.get(key)?.();
    this.timers.delete(key);
  }

  private pump(): void {
    while (!this.stopped && this.running < this.options.concurrency && this.pending.size > 0) {
      const key = this.pending.values().next().value as string;
      this.pending.delete(key);
      this.active.add(key);
      this.running += 1;
      void this.process(key).finally(() => {
        this.active.delete(key);
        this.running -= 1;
        if (this.dirty.delete(key)) this.pending.add(key);
        this.pump();
        if (this.running === 0 && this.pending.size === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
      });
    }
  }

  private async process(key: string): Promise<void> {
    const started = this.scheduler.now();
    const observe = (outcome: ReconcileOutcome): void =>
      this.options.observer?.reconciled(this.reconciler.name, outcome, (this.scheduler.now() - started) / 1000);
    try {
      const result = await this.reconciler.reconcile(key);
      this.backoff.delete(key);
      observe(result.requeueAfter === undefined ? 'success' : 'requeue');
      if (result.requeueAfter !== undefined) this.addAfter(key, result.requeueAfter);
    } catch (error) {
      observe(error instanceof TerminalError ? 'terminal' : 'error');
      if (error instanceof TerminalError) {
        this.backoff.delete(key);
        this.logger.warn({ controller: this.reconciler.name, key, err: error.message }, 'reconcile failed permanently');
        return;
      }
      const state = this.backoff.get(key) ?? { failures: 0 };
      state.failures += 1;
      this.backoff.set(key, state);
      const delay = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (state.failures - 1));
      this.logger.info({ controller: this.reconciler.name, key, err: String(error), retryInMs: delay }, 'reconcile failed, retrying');
      this.addAfter(key, delay);
    }
  }
}
