/** Milliseconds since the epoch; injected so tests can move time without sleeping. */
export type Clock = () => number;

/** The wall clock. */
export const systemClock: Clock = () => Date.now();

/** Runs `callback` after `delayMs` on a real timer that never keeps the process alive; returns a function that cancels it. */
export function unrefTimeout(callback: () => void, delayMs: number): () => void {
  const timer = setTimeout(callback, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}

/** Timers whose time only moves when {@link ManualTimers.advance} is called (the schedulers tests inject). */
export class ManualTimers {
  private current = 0;
  private readonly timers = new Set<{ at: number; callback: () => void }>();

  /** Runs `callback` once time has moved `delayMs` on; returns a function that cancels it. */
  protected after(delayMs: number, callback: () => void): () => void {
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
