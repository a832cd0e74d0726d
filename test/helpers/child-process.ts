import type { ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** Ends a helper's server process: SIGTERM, then SIGKILL after 5 s; resolves once it has exited (at once if it had). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** A `sleep` duration no other process of this machine uses: `<seconds>.<random digits>`, to find that sleep in /proc. */
export function markedSeconds(seconds: number): string {
  return `${seconds}.${randomInt(100_000, 999_999)}`;
}

/** Whether a process of this machine (sandboxed ones included) has `argument` among its arguments. */
export function processWithArgument(argument: string): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(argument);
      } catch {
        return false; // it exited meanwhile
      }
    });
}
