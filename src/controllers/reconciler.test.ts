import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { TerminalError, WorkQueue, type Reconciler, type Result } from './reconciler.js';
import { ManualQueueScheduler } from './queue-scheduler.js';

const logger = pino({ level: 'silent' });

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

function queueOf(reconciler: Reconciler, concurrency = 2): { queue: WorkQueue; scheduler: ManualQueueScheduler } {
  const scheduler = new ManualQueueScheduler();
  const queue = new WorkQueue(reconciler, logger, { concurrency, baseDelayMs: 5, maxDelayMs: 40, scheduler });
  return { queue, scheduler };
}

/** A queue (concurrency 2) over a recorder of `behaviour`, after its first pass of key `a`. */
async function reconciledOnce(behaviour: (key: string, attempt: number) => Promise<Result>) {
  const reconciler = recorder(behaviour);
  const { queue, scheduler } = queueOf(reconciler);
  queue.add('a');
  await queue.idle();
  return { reconciler, queue, scheduler };
}

describe('WorkQueue', () => {
  it('de-duplicates keys queued before they run', async () => {
    const reconciler = recorder(async () => ({}));
    const { queue } = queueOf(reconciler, 1);
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
    let release = (): void => undefined;
    const firstPassHeld = new Promise<void>((resolve) => (release = resolve));
    const reconciler = recorder(async (_key, attempt) => {
      running += 1;
      overlap ||= running > 1;
      if (attempt === 1) await firstPassHeld;
      running -= 1;
      return {};
    });
    const { queue } = queueOf(reconciler);
    queue.add('a');
    expect(reconciler.calls).toEqual(['a']);
    queue.add('a');
    expect(reconciler.calls).toEqual(['a']);
    release();
    await queue.idle();
    expect(overlap).toBe(false);
    expect(reconciler.calls).toEqual(['a', 'a']);
  });

  it('retries failures with exponential backoff until they succeed', async () => {
    const { reconciler, queue, scheduler } = await reconciledOnce(async (_key, attempt) => {
      if (attempt < 3) throw new Error('not yet');
      return {};
    });
    expect(reconciler.calls).toEqual(['a']);
    scheduler.advance(4);
    expect(reconciler.calls).toEqual(['a']);
    scheduler.advance(1);
    await queue.idle();
    expect(reconciler.calls).toEqual(['a', 'a']);
    scheduler.advance(9);
    expect(reconciler.calls).toEqual(['a', 'a']);
    scheduler.advance(1);
    await queue.idle();
    expect(reconciler.calls).toEqual(['a', 'a', 'a']);
    expect(scheduler.pending).toBe(0);
    queue.stop();
  });

  it('caps the backoff at the maximum delay', async () => {
    const { reconciler, queue, scheduler } = await reconciledOnce(async () => {
      throw new Error('never');
    });
    for (const delay of [5, 10, 20, 40, 40]) {
      const before = reconciler.calls.length;
      scheduler.advance(delay - 1);
      expect(reconciler.calls.length).toBe(before);
      scheduler.advance(1);
      await queue.idle();
      expect(reconciler.calls.length).toBe(before + 1);
    }
    queue.stop();
  });

  it('does not retry a terminal error', async () => {
    const { reconciler, queue, scheduler } = await reconciledOnce(async () => {
      throw new TerminalError('spec can never work');
    });
    expect(scheduler.pending).toBe(0);
    scheduler.advance(60_000);
    await queue.idle();
    expect(reconciler.calls).toEqual(['a']);
    queue.stop();
  });

  it('requeues after the requested delay', async () => {
    const { reconciler, queue, scheduler } = await reconciledOnce(async (_key, attempt) => (attempt === 1 ? { requeueAfter: 10 } : {}));
    scheduler.advance(9);
    expect(reconciler.calls).toEqual(['a']);
    scheduler.advance(1);
    await queue.idle();
    expect(reconciler.calls).toEqual(['a', 'a']);
    expect(scheduler.pending).toBe(0);
    queue.stop();
  });

  it('runs nothing after stop, and stop cancels a scheduled requeue', async () => {
    const { reconciler, queue, scheduler } = await reconciledOnce(async () => ({ requeueAfter: 5 }));
    expect(scheduler.pending).toBe(1);
    queue.stop();
    expect(scheduler.pending).toBe(0);
    queue.add('b');
    queue.addAfter('c', 5);
    scheduler.advance(1_000);
    await queue.idle();
    expect(reconciler.calls).toEqual(['a']);
  });
});
