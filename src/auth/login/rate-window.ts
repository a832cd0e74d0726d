import type { Clock } from '../../clock.js';
import type { RateWindowsStore, StoredWindow } from '../../store/rate-windows-store.js';

/** The state of one key's window after a check. */
export interface WindowState {
  limit: number;
  remaining: number;
  /** When the window resets, in milliseconds since the epoch. */
  resetAt: number;
  allowed: boolean;
  /** Whole seconds until the window resets (at least 1). */
  retryAfterSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

/** Fixed one-minute (by default) windows per key, in memory; time comes from the injected clock. */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request for `key` and reports whether it is within `limit`. */
  hit(key: string, limit: number): WindowState {
    const window = this.current(key);
    window.count += 1;
    return this.state(window, limit, window.count <= limit);
  }

  /** Reports the window without counting (allowed while requests remain). */
  peek(key: string, limit: number): WindowState {
    const window = this.current(key);
    return this.state(window, limit, window.count < limit);
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string): Window {
    const now = this.clock();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    return window;
  }

  private state(window: Window, limit: number, allowed: boolean): WindowState {
    const resetAt = window.start + this.windowMs;
    const retryAfterSeconds = Math.max(1, Math.ceil((resetAt - this.clock()) / 1000));
    return { limit, remaining: Math.max(0, limit - window.count), resetAt, allowed, retryAfterSeconds };
  }

  /** Drops finished windows once per window length so memory stays bounded. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (now >= window.start + this.windowMs) this.windows.delete(key);
    }
  }
}

/** The state of a window as {@link WindowState}; `at` is when it was looked at. */
function stateOf(window: StoredWindow & { windowMs: number; at: number }, limit: number, allowed: boolean): WindowState {
  const resetAt = window.start + window.windowMs;
  const retryAfterSeconds = Math.max(1, Math.ceil((resetAt - window.at) / 1000));
  return { limit, remaining: Math.max(0, limit - window.count), resetAt, allowed, retryAfterSeconds };
}

/** Counts hits per key; the login throttle's view of {@link SharedWindowCounter}. */
export interface AsyncWindowCounter {
  hit(key: string, limit: number): Promise<WindowState>;
  peek(key: string, limit: number): Promise<WindowState>;
  reset(key: string): Promise<void>;
}

/**
 * Fixed windows kept in the store (the login throttle): with PostgreSQL every replica counts into
 * the same window, so three replicas allow the same number of guesses as one. Each hit is one
 * atomic statement, so parallel guesses cannot all pass.
 */
export class SharedWindowCounter implements AsyncWindowCounter {
  constructor(
    private readonly store: RateWindowsStore,
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
  ) {}

  async hit(key: string, limit: number): Promise<WindowState> {
    const now = this.clock();
    const window = await this.store.hit(key, now, this.windowMs);
    return stateOf({ ...window, windowMs: this.windowMs, at: now }, limit, window.count <= limit);
  }

  async peek(key: string, limit: number): Promise<WindowState> {
    const now = this.clock();
    const stored = await this.store.find(key);
    const window = stored && now < stored.start + this.windowMs ? stored : { start: now, count: 0 };
    return stateOf({ ...window, windowMs: this.windowMs, at: now }, limit, window.count < limit);
  }

  reset(key: string): Promise<void> {
    return this.store.reset(key);
  }
}
