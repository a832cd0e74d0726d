/** Runs a callback after a delay; returns a function that cancels it. Injected so tests move time by hand. */
export interface Scheduler {
  schedule(delayMs: number, callback: () => void): () => void;
}

/** Real timers; they never keep the process alive. */
export const timerScheduler: Scheduler = {
  schedule(delayMs, callback) {
    const timer = setTimeout(callback, delayMs);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A scheduler whose time only moves when {@link ManualScheduler.advance} is called (tests). */
export class ManualScheduler implements Scheduler {
  private now = 0;
  private readonly timers = new Set<{ at: number; callback: () => void }>();

  schedule(delayMs: number, callback: () => void): () => void {
    const timer = { at: this.now + delayMs, callback };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** Moves time forward, firing every timer that falls due, in order. */
  advance(milliseconds: number): void {
    this.now += milliseconds;
    const due = [...this.timers].filter((timer) => timer.at <= this.now).sort((first, second) => first.at - second.at);
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
