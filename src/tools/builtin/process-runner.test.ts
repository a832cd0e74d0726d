import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markedSeconds, processWithArgument } from '../../../test/helpers/child-process.js';
import { waitFor } from '../../../test/helpers/cluster.js';
import { runProcess } from './process-runner.js';

/** Field 6 of /proc/<pid>/stat: the session id. */
const sessionOf = (stat: string): string => stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3] ?? '';
const environment = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const ownStat = (): string => readFileSync('/proc/self/stat', 'utf8');

describe('runProcess sessions', () => {
  it('runs a program in a session of its own by default, and in the service’s session with ownSession: false', async () => {
    const base = { file: 'cat', args: ['/proc/self/stat'], environment, timeoutMs: 10_000, outputLimit: 4096 };
    const detached = await runProcess(base);
    const shared = await runProcess({ ...base, ownSession: false });
    expect([detached.isError, shared.isError]).toEqual([false, false]);
    expect(sessionOf(detached.output)).not.toBe(sessionOf(ownStat()));
    expect(sessionOf(shared.output)).toBe(sessionOf(ownStat()));
  });

  it('still kills a program without a session of its own on timeout and on abort', async () => {
    const base = { file: 'sleep', args: ['30'], environment, outputLimit: 4096, ownSession: false };
    const timedOut = await runProcess({ ...base, timeoutMs: 200 });
    expect(timedOut).toMatchObject({ isError: true, output: expect.stringContaining('timed out after 200 ms') });
    const controller = new AbortController();
    const seconds = markedSeconds(30);
    const running = runProcess({ ...base, args: [seconds], timeoutMs: 30_000, signal: controller.signal });
    await waitFor(() => processWithArgument(seconds));
    controller.abort();
    expect(await running).toMatchObject({ isError: true, output: expect.stringContaining('cancelled') });
    await waitFor(() => !processWithArgument(seconds)); // killed, not left running
  });
});
