// Shared by the benchmarks (not a benchmark itself: `make bench` runs bench/*.bench.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** A Pilothouse child process started for a benchmark. */
export interface BenchService {
  url: string;
  child: ChildProcess;
  dataDir: string;
}

/**
 * Starts `bin/pilothouse` against `kubeconfig` with `args` (auth flags, `--web` ...), a fresh data
 * directory and a config file (`options.config`: more YAML after the limits); resolves once `/api/health` answers
 * (`options.readyPath`: another path, e.g. `/api/livez` while the LLM hangs; `options.fromSources`: runs src/main.ts instead of the build). The benchmark is the only client, so the per-client rate
 * limit is lifted: it would measure itself.
 */
export async function startPilothouse(
  kubeconfig: string,
  args: string[],
  options: { config?: string; port?: number; fromSources?: boolean; readyPath?: string } = {},
): Promise<BenchService> {
  const port = options.port ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'pilothouse-bench-'));
  const config = join(dataDir, 'config.yaml');
  writeFileSync(config, `limits: {requests_per_minute: 10000000}\n${options.config ?? ''}`);
  // From the sources (src/main.ts, as the e2e tests run it) or the build (bin/pilothouse → dist/).
  const program = options.fromSources
    ? [
        '--experimental-transform-types',
        '--no-warnings',
        '--import',
        fileURLToPath(new URL('../test/fixtures/mcp/register-ts.mjs', import.meta.url)),
        fileURLToPath(new URL('../src/main.ts', import.meta.url)),
      ]
    : [fileURLToPath(new URL('../bin/pilothouse', import.meta.url))];
  const child = spawn(process.execPath, [...program, '--config', config, '--kubeconfig', kubeconfig, '--port', String(port), '--data-dir', dataDir, ...args], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const up = await fetch(`${url}${options.readyPath ?? '/api/health'}`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, child, dataDir };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('Pilothouse did not start');
}

/** Stops a benchmark's Pilothouse, waits for it to exit and removes its data directory. */
export async function stopPilothouse(service: BenchService): Promise<void> {
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  if (service.child.exitCode === null && service.child.signalCode === null) {
    service.child.kill();
    await exited;
  }
  rmSync(service.dataDir, { recursive: true, force: true });
}
