import type { Clock } from '../clock.js';

/** Runs work at a time on the injected clock (tests move time with their own implementation). */
export interface Deadlines {
  /** Calls `run` at `at` (ms since the epoch); returns the cancel function. */
  schedule(at: number, run: () => void): () => void;
}

/** Deadlines on real timers, measured on `clock` (never keeping the process alive). */
export function timerDeadlines(clock: Clock): Deadlines {
  return {
    schedule: (at, run) => {
      const timer = setTimeout(run, Math.max(0, Math.min(at - clock(), 2 ** 31 - 1)));
      timer.unref();
      return () => clearTimeout(timer);
    },
  };
}
