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

describe('retryStream', () => {
  it('backs off exponentially up to the cap', () => {
    const sleeps: number[] = [];
    expect([0, 1, 2, 3].map((retry) => backoffDelay(policy(sleeps), retry))).toEqual([100, 200, 250, 250]);
  });

  it('re-opens a stream that failed before yielding, at most maxRetries times', async () => {
    const sleeps: number[] = [];
    let attempts = 0;
    const result = await drain(
      retryStream(
        async function* () {
          attempts++;
          throw new Error('busy');
        },
        { policy: policy(sleeps, 2), shouldRetry: () => true },
      ),
    );
    expect((result.error as Error).message).toBe('busy');
    expect(attempts).toBe(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it('never replays a stream that already yielded', async () => {
    const sleeps: number[] = [];
    let attempts = 0;
    const result = await drain(
      retryStream(
        async function* () {
          attempts++;
          yield 'partial';
          throw new Error('broken');
        },
        { policy: policy(sleeps), shouldRetry: () => true },
      ),
    );
    expect(result.items).toEqual(['partial']);
    expect(attempts).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry what shouldRetry refuses', async () => {
    let attempts = 0;
    await drain(
      retryStream(
        async function* () {
          attempts++;
          throw new Error('unauthorized');
        },
        { policy: policy([]), shouldRetry: () => false },
      ),
    );
    expect(attempts).toBe(1);
  });
});
