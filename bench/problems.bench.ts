// How to run: `make bench` (or BENCH_PROBLEMS_PODS=2000 for a smaller run). Creates KWOK pods on the test cluster
// (10 namespaces, BENCH_PROBLEMS_BROKEN of them, default 500, set crash-looping through the status subresource),
// then measures the problems engine (src/problems) in this process: time from start to the first complete set of
// findings; p99 time from a pod starting to crash to its finding reaching a listener (the live stream's source);
// the engine's CPU while 20 pods change per second; RSS with the engine over RSS without it. Prints the figures
// for docs/user-guide/problems.md and tears everything down. Never part of the tests; no test asserts these times.
import { join } from 'node:path';
import { KubeClients, loadKubeConfig } from '../src/kube/clients.js';
import { createLogger } from '../src/log.js';
import { problemsSchema } from '../src/config/problems-schema.js';
import { allAnalyzers } from '../src/problems/analyzers/index.js';
import { ProblemsEngine } from '../src/problems/engine.js';
import { inParallel } from './helpers.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const podCount = Number(process.env.BENCH_PROBLEMS_PODS ?? 10_000);
const brokenCount = Number(process.env.BENCH_PROBLEMS_BROKEN ?? 500);
const changeSeconds = Number(process.env.BENCH_PROBLEMS_SECONDS ?? 30);
const namespaces = Array.from({ length: 10 }, (_, index) => `problems-${process.pid}-${index}`);
const rest = new KubeClients(loadKubeConfig({ kubeconfigPath: kubeconfig }), { kubeconfigPath: kubeconfig }).forIdentity().rest;
const where = (index: number): { namespace: string; name: string } => ({ namespace: namespaces[index % namespaces.length]!, name: `pod-${index}` });

async function crash(index: number, restarts: number): Promise<void> {
  const { namespace, name } = where(index);
  const status = {
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: [
        {
          name: 'app',
          image: 'registry.example/app:1.0',
          imageID: '',
          ready: false,
          restartCount: restarts,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
        },
      ],
    },
  };
  await rest.json('PATCH', `/api/v1/namespaces/${namespace}/pods/${name}/status`, { body: status, contentType: 'application/merge-patch+json' });
}

const percentile = (sorted: number[], fraction: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
const rssMiB = (): number => process.memoryUsage().rss / 2 ** 20;

for (const namespace of namespaces)
  await rest.json('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
try {
  await inParallel(podCount, 16, async (index) => {
    const { namespace, name } = where(index);
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app: `app-${index % 50}` } },
      spec: { nodeName: 'kwok-node-0', containers: [{ name: 'app', image: 'registry.example/app:1.0' }] },
    };
    await rest.json('POST', `/api/v1/namespaces/${namespace}/pods`, { body });
  });
  await inParallel(brokenCount, 16, (index) => crash(index, 1));
  global.gc?.();
  const rssBefore = rssMiB();
  const engine = new ProblemsEngine({
    cluster: 'bench',
    rest: () => rest,
    config: problemsSchema.parse({}),
    analyzers: allAnalyzers,
    clock: Date.now,
    logger: createLogger('silent'),
  });
  const started = performance.now();
  await engine.start();
  const firstComplete = performance.now() - started;
  const found = engine.findings().filter((finding) => finding.reason === 'CrashLoopBackOff').length;
  global.gc?.();
  const rssWith = rssMiB();
  // Latency: a pod starts crashing → its finding is added (what the live stream sends).
  const waiting = new Map<string, number>();
  const latencies: number[] = [];
  engine.onChange((change) => {
    const begun = waiting.get(change.finding.object.name);
    if (change.type === 'added' && begun !== undefined) latencies.push(performance.now() - begun);
  });
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (let second = 0; second < changeSeconds; second += 1) {
    const tick = performance.now();
    await inParallel(20, 20, async (offset) => {
      const index = brokenCount + second * 20 + offset;
      waiting.set(where(index).name, performance.now());
      await crash(index, 1);
    });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - tick))));
  }
  const cpu = process.cpuUsage(cpuBefore);
  const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore)) * 100;
  latencies.sort((left, right) => left - right);
  console.log(`pods ${podCount}, broken ${brokenCount}: first complete set of findings ${firstComplete.toFixed(0)} ms (${found} crash loops found)`);
  console.log(
    `change → finding: p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p99 ${percentile(latencies, 0.99).toFixed(0)} ms (${latencies.length} changes)`,
  );
  console.log(`CPU of this process (engine and the bench's own calls) at 20 changes/s: ${cpuPercent.toFixed(1)} % of one core`);
  console.log(
    `RSS without the engine ${rssBefore.toFixed(0)} MiB, with it ${rssWith.toFixed(0)} MiB (+${(((rssWith - rssBefore) / rssBefore) * 100).toFixed(0)} %)`,
  );
  engine.close();
} finally {
  for (const namespace of namespaces) await rest.raw('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => undefined);
  await rest.close();
}
