import { setTimeout as delay } from 'node:timers/promises';
import type { SleepFunction } from './types.js';

export interface RetryPolicy {
  /** Extra attempts after the first one. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: SleepFunction;
}

/** The real sleep: a timer that rejects when the signal aborts. */
export const realSleep: SleepFunction = async (milliseconds, signal) => {
  await delay(milliseconds, undefined, { signal });
};

/** Exponential backoff with a cap: base, 2×base, 4×base ... */
export function backoffDelay(policy: RetryPolicy, retryNumber: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryNumber);
}

export interface RetryStreamOptions {
  policy: RetryPolicy;
  /** Decides whether a failed attempt that has not yielded anything is tried again. */
  shouldRetry: (error: unknown) => boolean;
  signal?: AbortSignal;
}

/**
 * Iterates `open(attempt)` and re-opens it after a retryable failure, but only
 * while nothing has been yielded yet: partial output is never replayed.
 */
export async function* retryStream<T>(open: (attempt: number) => AsyncIterable<T>, options: RetryStreamOptions): AsyncGenerator<T> {
  for (let attempt = 0; ; attempt++) {
    let yielded = false;
    try {
      for await (const item of open(attempt)) {
        yielded = true;
        yield item;
      }
      return;
    } catch (error) {
      const again = !yielded && attempt < options.policy.maxRetries && options.shouldRetry(error);
      if (!again) throw error;
    }
    await options.policy.sleep(backoffDelay(options.policy, attempt), options.signal);
  }
}
