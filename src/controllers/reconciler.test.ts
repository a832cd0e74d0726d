import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { TerminalError, WorkQueue, type Reconciler, type Result } from './reconciler.js';

const logger = pino({ level: 'silent' });
const fastRetries = { concurrency: 2, baseDelayMs: 5, maxDelayMs: 40 };

function recorder(behaviour: (key: string, attempt: number) => Promise<Result>): Reconciler & { calls: string[] } {
  const calls: string[] = [];
  const attempts = new Map<string, number>();
  return {
    name: 'test',
    calls,
    async reconcile(key) {
      calls.push(key);
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      return behaviour(key, attempt);
    },
  };
}

describe('WorkQueue', () => {
  it('de-duplicates keys queued before they run', async () => {
    const reconciler = recorder(async () => ({}));
    const queue = new WorkQueue(reconciler, logger, { ...fastRetries, concurrency: 1 });
    queue.add('a');
    queue.add('b');
    queue.add('b');
    queue.add('b');
    await queue.idle();
    expect(reconciler.calls.sort()).toEqual(['a', 'b']);
  });

  it('never reconciles one key twice at once, but runs it again when it changed meanwhile', async () => {
    let running = 0;
    let overlap = false;
    const reconciler = recorder(async () => {
      running += 1;
      overlap ||= running > 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      running -= 1;
      return {};
    });
    const queue = new WorkQueue(reconciler, logger, fastRetries);
    queue.add('a');
    await new Promise((resolve) => setTimeout(resolve, 5));
    queue.add('a');
    await new Promise((resolve) => setTimeout(resolve, 60));
    await queue.idle();
    expect(overlap).toBe(false);
    expect(reconciler.calls).toEqual(['a', 'a']);
  });

  it('retries failures with backoff until they succeed', async () => {
    const reconciler = recorder(async (_key, attempt) => {
      if (attempt < 3) throw new Error('not yet');
      return {};
    });
    const queue = new WorkQueue(reconciler, logger, fastRetries);
    queue.add('a');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(reconciler.calls).toEqual(['a', 'a', 'a']);
    queue.stop();
  });

  it('does not retry a terminal error', async () => {
    const reconciler = recorder(async () => {
      throw new TerminalError('spec can never work');
    });
    const queue = new WorkQueue(reconciler, logger, fastRetries);
    queue.add('a');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(reconciler.calls).toEqual(['a']);
    queue.stop();
  });

  it('requeues after the requested delay', async () => {
    const reconciler = recorder(async (_key, attempt) => (attempt === 1 ? { requeueAfter: 10 } : {}));
    const queue = new WorkQueue(reconciler, logger, fastRetries);
    queue.add('a');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(reconciler.calls).toEqual(['a', 'a']);
    queue.stop();
  });

  it('runs nothing after stop', async () => {
    const reconciler = recorder(async () => ({ requeueAfter: 5 }));
    const queue = new WorkQueue(reconciler, logger, fastRetries);
    queue.stop();
    queue.add('a');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reconciler.calls).toEqual([]);
  });
});
