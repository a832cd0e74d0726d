import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { RestClient } from '../kube/rest-client.js';
import { Controller } from './controller.js';
import { LeaderElector } from './leader-election.js';
import type { ControllerObserver } from './reconciler.js';

/** Something that runs only while this replica leads (a Controller). */
export interface Runnable {
  start(): void;
  stop(): void;
}

export interface ControllerManagerOptions {
  namespace: string;
  leaseName?: string;
  leaderElection: boolean;
  /** The leader election's clock (the wall clock by default). */
  clock?: Clock;
  /** Sees reconcile passes and leadership changes (the service's metrics). */
  observer?: ControllerObserver;
}

/**
 * Starts the registered controllers while this replica holds the leader Lease and stops
 * them when it loses it. Without leader election (single replica) they run at once.
 * Controllers registered with {@link registerEverywhere} run on every replica.
 */
export class ControllerManager {
  private readonly runnables: Runnable[] = [];
  private readonly everywhere: Runnable[] = [];
  private elector?: LeaderElector;
  private running = false;
  private started = false;

  constructor(
    private readonly rest: RestClient,
    private readonly logger: Logger,
    private readonly options: ControllerManagerOptions,
  ) {}

  register(runnable: Runnable): void {
    if (runnable instanceof Controller) runnable.observer = this.options.observer;
    this.runnables.push(runnable);
    if (this.running) runnable.start();
  }

  /**
   * Runs `runnable` on every replica, from start to stop; it is started again when this replica
   * starts leading, so a level-based controller passes over every object once more as the leader
   * (its reconciler does the leader's part, e.g. status writes, only while {@link isLeader}).
   */
  registerEverywhere(runnable: Runnable): void {
    if (runnable instanceof Controller) runnable.observer = this.options.observer;
    this.everywhere.push(runnable);
    if (this.started) runnable.start();
  }

  get isLeader(): boolean {
    return this.running;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.options.observer?.leading(false);
    if (!this.options.leaderElection) return this.startAll();
    for (const runnable of this.everywhere) runnable.start();
    this.elector = new LeaderElector(
      this.rest,
      { namespace: this.options.namespace, name: this.options.leaseName ?? 'pilothouse-controller', clock: this.options.clock },
      { onStartedLeading: () => this.startAll(), onStoppedLeading: () => this.stopAll() },
      this.logger,
    );
    this.elector.start();
  }

  async stop(): Promise<void> {
    this.stopAll();
    for (const runnable of this.everywhere) runnable.stop();
    await this.elector?.stop();
  }

  private startAll(): void {
    this.running = true;
    this.options.observer?.leading(true);
    for (const runnable of [...this.everywhere, ...this.runnables]) runnable.start();
  }

  private stopAll(): void {
    if (!this.running) return;
    this.running = false;
    this.options.observer?.leading(false);
    for (const runnable of this.runnables) runnable.stop();
  }
}
