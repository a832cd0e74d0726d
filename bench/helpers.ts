// Shared by the benchmarks (not a benchmark itself: `make bench` runs bench/*.bench.ts).
import { createServer } from 'node:net';

/** Runs `work(0 … count-1)` with at most `concurrency` calls in flight (e.g. creating KWOK pods). */
export async function inParallel(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** A loopback port that was free a moment ago (for a Pilothouse child process). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
