/** Time as a WorkQueue sees it: delayed callbacks and a monotonic now. Injected so tests move time by hand. */
export interface QueueScheduler {
  /** Runs `callback` after `delayMs`; returns a function that cancels it. */
  schedule(callback: () => void, delayMs: number): () => void;
  /** Monotonic milliseconds (for pass durations). */
  now(): number;
}

/** Real timers that never keep the process alive, and performance.now(). */
export const realQueueScheduler: QueueScheduler = {
  schedule(callback, delayMs) {
    const timer = setTimeout(callback, delayMs);
    timer.unref();
    return () => clearTimeout(timer);
  },
  now: () => performance.now(),
};

/** A scheduler whose time only moves when {@link ManualQueueScheduler.advance} is called (tests). */
export class ManualQueueScheduler implements QueueScheduler {
  private current = 0;
  private readonly timers = new Set<{ at: number; callback: () => void }>();

  schedule(callback: () => void, delayMs: number): () => void {
    const timer = { at: this.current + delayMs, callback };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  now(): number {
    return this.current;
  }

  /** Moves time forward, firing every timer that falls due, in order. */
  advance(milliseconds: number): void {
    this.current += milliseconds;
    const due = [...this.timers].filter((timer) => timer.at <= this.current).sort((first, second) => first.at - second.at);
    for (const timer of due) {
      this.timers.delete(timer);
      timer.callback();
    }
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }
}
