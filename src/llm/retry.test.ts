import { describe, expect, it } from 'vitest';
import { backoffDelay, retryStream, type RetryPolicy } from './retry.js';

function policy(sleeps: number[], maxRetries = 3): RetryPolicy {
  return { maxRetries, baseDelayMs: 100, maxDelayMs: 250, sleep: async (milliseconds) => void sleeps.push(milliseconds) };
}

async function drain<T>(stream: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of stream) items.push(item);
    return { items, error: undefined };
  } catch (error) {
    return { items, error };
  }
}

/** Drains `retryStream` over `open`, counting how often it opened the stream and how long it slept between. */
async function retried<T>(open: () => AsyncGenerator<T>, maxRetries = 3, retry = true) {
  const sleeps: number[] = [];
  let attempts = 0;
  const result = await drain(
    retryStream(
      () => {
        attempts++;
        return open();
      },
      { policy: policy(sleeps, maxRetries), shouldRetry: () => retry },
    ),
  );
  return { result, attempts, sleeps };
}

describe('retryStream', () => {
  it('backs off exponentially up to the cap', () => {
    const sleeps: number[] = [];
    expect([0, 1, 2, 3].map((retry) => backoffDelay(policy(sleeps), retry))).toEqual([100, 200, 250, 250]);
  });

  it('re-opens a stream that failed before yielding, at most maxRetries times', async () => {
    const { result, attempts, sleeps } = await retried(async function* () {
      throw new Error('busy');
    }, 2);
    expect((result.error as Error).message).toBe('busy');
    expect(attempts).toBe(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it('never replays a stream that already yielded', async () => {
    const { result, attempts, sleeps } = await retried(async function* () {
      yield 'partial';
      throw new Error('broken');
    });
    expect(result.items).toEqual(['partial']);
    expect(attempts).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry what shouldRetry refuses', async () => {
    const { attempts } = await retried(
      async function* () {
        throw new Error('unauthorized');
      },
      3,
      false,
    );
    expect(attempts).toBe(1);
  });
});
