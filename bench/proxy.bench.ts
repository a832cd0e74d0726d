// How to run: `make bench` (starts the local test cluster with `make cluster` when needed).
// Measures one kubectl call (`kubectl get configmaps -n NS -o name`, a fresh process each time)
// run by the AI's kubectl tool through a per-call policy proxy — open the proxy, run the tool,
// close it — against the same kubectl straight at the API server. Never part of the tests.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/log.js';
import { startService } from '../src/app/service.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const kubectl = join(root, '.tools', 'bin', 'kubectl');
const namespace = `bench-proxy-${process.pid}`;
const rounds = 60;
const run = promisify(execFile);
const cacheDir = mkdtempSync(join(tmpdir(), 'pilothouse-bench-cache-'));

function kube(args: string[]): void {
  execFileSync(kubectl, ['--kubeconfig', kubeconfig, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Runs the calls in turn, `rounds` times (interleaved, so that load on the machine hits every row alike); p50 per row. */
async function measure(calls: [label: string, call: () => Promise<unknown>][]): Promise<number[]> {
  const durations = calls.map((): number[] => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, [, call]] of calls.entries()) {
      const begin = performance.now();
      await call();
      durations[index]!.push(performance.now() - begin);
    }
  }
  return calls.map(([label], index) => {
    const sorted = durations[index]!.sort((a, b) => a - b);
    const p = (q: number): number => sorted[Math.floor(q * (sorted.length - 1))] ?? 0;
    console.log(`${label.padEnd(66)} p50 ${p(0.5).toFixed(0).padStart(4)} ms   p95 ${p(0.95).toFixed(0).padStart(4)} ms`);
    return p(0.5);
  });
}

kube(['create', 'namespace', namespace]);
for (let index = 0; index < 20; index += 1) kube(['create', 'configmap', `item-${index}`, '-n', namespace]);
const dataDir = mkdtempSync(join(tmpdir(), 'pilothouse-bench-'));
const service = await startService({
  config: parseConfig({ kubernetes: { namespace: `${namespace}-ph` } }, process.env),
  logger: createLogger('silent'),
  dataDir,
  kubeconfigPath: kubeconfig,
  host: '127.0.0.1',
  port: 0,
  noAuth: true,
});
const args = ['get', 'configmaps', '-n', namespace, '-o', 'name'];
const principal = { username: 'bench', role: 'admin', roles: [] } as const;
const direct = (cache: string) => (): Promise<unknown> => run(kubectl, ['--kubeconfig', kubeconfig, '--cache-dir', cache, ...args]);
const tool = service.deps.tools.get('kubectl');
if (!tool) throw new Error('no kubectl tool');
const proxied = async (): Promise<unknown> => {
  const session = await service.deps.proxyGateway.open({ principal, mode: 'read' });
  try {
    // The kubectl tool itself (argument check, environment, the shared warm discovery cache).
    const result = await tool.run({ command: args.join(' ') }, { principal, proxySession: session, mode: 'read' });
    if (result.isError) throw new Error(result.output);
    return result;
  } finally {
    await session.close();
  }
};
try {
  console.log(`one kubectl call (get 20 ConfigMaps), ${rounds} calls per row`);
  await proxied(); // the first call warms the shared discovery cache
  const [straight, , throughProxy] = await measure([
    ['straight at the API server, warm discovery cache', direct(cacheDir)],
    ['straight at the API server, cold discovery cache', () => direct(mkdtempSync(join(cacheDir, 'cold-')))()],
    ['kubectl tool through a per-call policy proxy (open + run + close)', proxied],
  ]);
  console.log(`policy proxy overhead, p50: ${((throughProxy ?? 0) - (straight ?? 0)).toFixed(0)} ms`);
} finally {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
  kube(['delete', 'namespace', namespace, `${namespace}-ph`, '--wait=false']);
}
