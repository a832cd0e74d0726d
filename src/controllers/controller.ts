import type { Logger } from 'pino';
import type { CustomClient } from '../kube/custom-client.js';
import { WorkQueue, type ControllerObserver, type QueueOptions, type Reconciler } from './reconciler.js';
import { realQueueScheduler } from './queue-scheduler.js';

export type { QueueOptions } from './reconciler.js';

const defaultQueueOptions: QueueOptions = { concurrency: 2, baseDelayMs: 500, maxDelayMs: 5 * 60_000, scheduler: realQueueScheduler };

type AnyObject = { metadata: { name: string; resourceVersion?: string } };

/**
 * Feeds a work queue from a list+watch of one kind. Level-based: on start and after
 * every watch failure it relists and queues every key, so a missed event heals itself.
 */
export class Controller<T extends AnyObject> {
  queue: WorkQueue;
  private abort = new AbortController();
  private known = new Set<string>();
  /** Sees every reconcile pass (set by the ControllerManager that registers this controller). */
  observer?: ControllerObserver;

  constructor(
    private readonly client: CustomClient<T>,
    private readonly reconciler: Reconciler,
    private readonly logger: Logger,
    private readonly queueOptions?: QueueOptions,
  ) {
    this.queue = new WorkQueue(reconciler, logger, queueOptions ?? defaultQueueOptions);
  }

  /** Starts (or restarts, after losing and regaining leadership) the list+watch and the queue. */
  start(): void {
    this.abort.abort();
    this.queue.stop();
    this.queue = new WorkQueue(this.reconciler, this.logger, { ...defaultQueueOptions, ...this.queueOptions, observer: this.observer });
    this.abort = new AbortController();
    this.reconciler.start?.();
    void this.run(this.abort.signal);
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
    this.reconciler.stop?.();
  }

  /** Lists, queues every key (vanished ones too, for cleanup) and returns the list's resourceVersion. */
  private async relist(): Promise<string> {
    const { items, resourceVersion } = await this.client.list();
    const names = new Set(items.map((item) => item.metadata.name));
    for (const name of [...this.known, ...names]) this.queue.add(name);
    this.known = names;
    return resourceVersion;
  }

  /** Queues the key of every watch event until the watch ends. */
  private async watch(resourceVersion: string, signal: AbortSignal): Promise<void> {
    for await (const event of this.client.watch(resourceVersion, signal)) {
      if (event.type === 'ERROR') return;
      if (event.type === 'BOOKMARK') continue;
      const name = event.object.metadata.name;
      if (event.type === 'DELETED') this.known.delete(name);
      else this.known.add(name);
      this.queue.add(name);
    }
  }

  private async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const resourceVersion = await this.relist();
        failures = 0;
        await this.watch(resourceVersion, signal);
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        this.logger.debug({ kind: this.client.kind.kind, err: String(error) }, 'controller watch failed');
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** failures)));
      }
    }
  }
}
