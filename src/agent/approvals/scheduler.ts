import { ManualTimers, unrefTimeout } from '../../clock.js';

/** Runs a callback after a delay; returns a function that cancels it. Injected so tests move time by hand. */
export interface Scheduler {
  schedule(delayMs: number, callback: () => void): () => void;
}

/** Real timers; they never keep the process alive. */
export const timerScheduler: Scheduler = {
  schedule: (delayMs, callback) => unrefTimeout(callback, delayMs),
};

/** A scheduler whose time only moves when {@link ManualScheduler.advance} is called (tests). */
export class ManualScheduler extends ManualTimers implements Scheduler {
  schedule(delayMs: number, callback: () => void): () => void {
    return this.after(delayMs, callback);
  }
}
