import type { ChildProcess } from 'node:child_process';

/** Ends a helper's server process: SIGTERM, then SIGKILL after 5 s; resolves once it has exited (at once if it had). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
