// How to run: `make bench` (starts the local test cluster with `make cluster` when needed).
// Measures one kubectl call (`kubectl get configmaps -n NS -o name`, a fresh process each time,
// as the AI's tool runs it) through a per-call policy proxy — open the proxy, run kubectl,
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

async function measure(label: string, call: () => Promise<unknown>): Promise<void> {
  const durations: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const begin = performance.now();
    await call();
    durations.push(performance.now() - begin);
  }
  durations.sort((a, b) => a - b);
  const p = (q: number): string => (durations[Math.floor(q * (durations.length - 1))] ?? 0).toFixed(0);
  console.log(`${label.padEnd(58)} p50 ${p(0.5).padStart(4)} ms   p95 ${p(0.95).padStart(4)} ms`);
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
const proxied = async (): Promise<unknown> => {
  const session = await service.deps.toolCluster.open({ principal, mode: 'read' });
  try {
    // As the kubectl tool: the discovery cache lives in the session's folder, so it starts cold.
    return await run(kubectl, ['--kubeconfig', session.kubeconfigPath, '--cache-dir', join(session.kubeconfigPath, '..', 'cache'), ...args]);
  } finally {
    await session.close();
  }
};
try {
  console.log(`one kubectl call (get 20 ConfigMaps), ${rounds} calls per row`);
  await measure('straight at the API server, warm discovery cache', direct(cacheDir));
  await measure('straight at the API server, cold discovery cache', () => direct(mkdtempSync(join(cacheDir, 'cold-')))());
  await measure('through a per-call policy proxy (open + run + close)', proxied);
} finally {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
  kube(['delete', 'namespace', namespace, `${namespace}-ph`, '--wait=false']);
}
