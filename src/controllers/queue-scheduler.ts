import { ManualTimers, unrefTimeout } from '../clock.js';

/** Time as a WorkQueue sees it: delayed callbacks and a monotonic now. Injected so tests move time by hand. */
export interface QueueScheduler {
  /** Runs `callback` after `delayMs`; returns a function that cancels it. */
  schedule(callback: () => void, delayMs: number): () => void;
  /** Monotonic milliseconds (for pass durations). */
  now(): number;
}

/** Real timers that never keep the process alive, and performance.now(). */
export const realQueueScheduler: QueueScheduler = {
  schedule: unrefTimeout,
  now: () => performance.now(),
};

/** A scheduler whose time only moves when {@link ManualQueueScheduler.advance} is called (tests). */
export class ManualQueueScheduler extends ManualTimers implements QueueScheduler {
  schedule(callback: () => void, delayMs: number): () => void {
    return this.after(delayMs, callback);
  }
}
