// How to run: `make bench` (starts the local test cluster with `make cluster` when needed).
// Compares listing 300 ConfigMaps through Pilothouse (watch-fed cache) with listing them
// straight from the API server, sequentially and 8 at a time. Never part of the tests.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/log.js';
import { startService } from '../src/app/service.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const kubectl = join(root, '.tools', 'bin', 'kubectl');
const namespace = `bench-${process.pid}`;
const objects = 300;
const rounds = 200;

function kube(args: string[], input?: string): void {
  execFileSync(kubectl, ['--kubeconfig', kubeconfig, ...args], { input, stdio: ['pipe', 'ignore', 'inherit'] });
}

async function measure(label: string, call: () => Promise<unknown>, concurrency: number): Promise<void> {
  const durations: number[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < rounds) {
      next += 1;
      const begin = performance.now();
      await call();
      durations.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const total = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  const p = (q: number): string => (durations[Math.floor(q * (durations.length - 1))] ?? 0).toFixed(1);
  console.log(`${label.padEnd(44)} ${(rounds / total).toFixed(0).padStart(6)} lists/s   p50 ${p(0.5)} ms   p95 ${p(0.95)} ms`);
}

kube(['create', 'namespace', namespace]);
const documents = Array.from(
  { length: objects },
  (_, index) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: item-${index}}\ndata: {index: "${index}"}\n`,
).join('---\n');
kube(['apply', '-n', namespace, '-f', '-'], documents);
const dataDir = mkdtempSync(join(tmpdir(), 'pilothouse-bench-'));
const service = await startService({
  config: parseConfig({ kubernetes: { namespace: `${namespace}-ph` }, limits: { requests_per_minute: 1_000_000 } }, process.env),
  logger: createLogger('silent'),
  dataDir,
  kubeconfigPath: kubeconfig,
  host: '127.0.0.1',
  port: 0,
  noAuth: true,
});
const rest = service.deps.home.kube.forIdentity(undefined).rest;
const viaPilothouse = async (): Promise<unknown> => (await fetch(`${service.url}/api/k8s/configmaps?namespace=${namespace}`)).json();
const direct = (): Promise<unknown> => rest.json('GET', `/api/v1/namespaces/${namespace}/configmaps`);
try {
  await viaPilothouse();
  console.log(`listing ${objects} ConfigMaps, ${rounds} lists per row`);
  await measure('Pilothouse GET /api/k8s/configmaps (cache)', viaPilothouse, 1);
  await measure('API server list (direct)', direct, 1);
  await measure('Pilothouse, 8 concurrent', viaPilothouse, 8);
  await measure('API server, 8 concurrent', direct, 8);
} finally {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
  kube(['delete', 'namespace', namespace, `${namespace}-ph`, '--wait=false']);
}
