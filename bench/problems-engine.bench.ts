// How to run: `make bench` (alone: node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types
// --no-warnings --expose-gc bench/problems-engine.bench.ts). The problems engine's own part (src/problems: the object
// store, every analyzer, the dependents, the finding index), fed in this process with the objects a watch would
// deliver (slimmed as KindWatch slims them), without an API server: BENCH_ENGINE_PODS pods (default 10,000) in 10
// namespaces, 50 apps per namespace (Deployment, ReplicaSet, Service), BENCH_ENGINE_BROKEN of them crash-looping
// (default 500, each with its BackOff Event). Measures: start to the first complete set of findings; p99 from a
// pod starting to crash to its finding reaching a listener (what the live stream sends); CPU while 20 pods change
// per second (BENCH_ENGINE_SECONDS, default 30); RSS with the engine over RSS of the same objects held without it.
// bench/problems.bench.ts measures the same through a real API server. Never part of the tests.
import { problemsSchema } from '../src/config/problems-schema.js';
import { createLogger } from '../src/log.js';
import { allAnalyzers } from '../src/problems/analyzers/index.js';
import { ProblemsEngine, type KindSource } from '../src/problems/engine.js';
import { slimObject, type KindChange } from '../src/problems/kind-watch.js';
import type { KubeThing } from '../src/problems/shapes.js';
import type { WatchedKind } from '../src/problems/watched-kinds.js';
import type { RestClient } from '../src/kube/rest-client.js';

const podCount = Number(process.env.BENCH_ENGINE_PODS ?? 10_000);
const brokenCount = Number(process.env.BENCH_ENGINE_BROKEN ?? 500);
const changeSeconds = Number(process.env.BENCH_ENGINE_SECONDS ?? 30);
const namespaces = Array.from({ length: 10 }, (_, index) => `shop-${index}`);
const appsPerNamespace = 50;
const created = '2026-01-01T00:00:00Z';

const where = (index: number): { namespace: string; app: string } => {
  const namespace = namespaces[index % namespaces.length]!;
  return { namespace, app: `app-${Math.floor(index / namespaces.length) % appsPerNamespace}` };
};

function pod(index: number, crashing: boolean): KubeThing {
  const { namespace, app } = where(index);
  const waiting = crashing ? { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } } : { running: {} };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${app}-${index}`,
      namespace,
      labels: { app },
      creationTimestamp: created,
      ownerReferences: [{ kind: 'ReplicaSet', name: `${app}-5d8f`, controller: true }],
      resourceVersion: String(index),
    },
    spec: { nodeName: `node-${index % 20}`, containers: [{ name: 'main', ports: [{ name: 'http', containerPort: 8080 }] }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: crashing ? 'False' : 'True' }],
      containerStatuses: [
        {
          name: 'main',
          ready: !crashing,
          restartCount: crashing ? 3 : 0,
          state: waiting,
          ...(crashing ? { lastState: { terminated: { reason: 'Error', exitCode: 1, finishedAt: created } } } : {}),
        },
      ],
    } as object,
  };
}

function appObjects(namespace: string, app: string): KubeThing[] {
  const selector = { matchLabels: { app } };
  const replicas = podCount / namespaces.length / appsPerNamespace;
  const status = { replicas, readyReplicas: replicas, availableReplicas: replicas, updatedReplicas: replicas };
  const deployment = { kind: 'Deployment', metadata: { name: app, namespace }, spec: { replicas, selector }, status };
  const replicaSet = {
    kind: 'ReplicaSet',
    metadata: { name: `${app}-5d8f`, namespace, ownerReferences: [{ kind: 'Deployment', name: app, controller: true }] },
    spec: { replicas, selector },
    status,
  };
  const service = { kind: 'Service', metadata: { name: app, namespace }, spec: { selector: { app }, ports: [{ port: 80, targetPort: 'http' }] } };
  return [deployment, replicaSet, service];
}

const backOff = (index: number): KubeThing => ({
  kind: 'Event',
  metadata: { name: `backoff-${index}`, namespace: where(index).namespace },
  involvedObject: { kind: 'Pod', namespace: where(index).namespace, name: pod(index, true).metadata!.name },
  reason: 'BackOff',
  message: 'Back-off restarting failed container main',
  count: 3,
  type: 'Warning',
  lastTimestamp: created,
});

/** Every object of the cluster, by kind, as a watch's first list delivers them. */
function clusterObjects(): Map<string, KubeThing[]> {
  const byKind = new Map<string, KubeThing[]>();
  const add = (object: KubeThing): void => void byKind.set(object.kind!, [...(byKind.get(object.kind!) ?? []), object]);
  for (const namespace of namespaces) for (let app = 0; app < appsPerNamespace; app += 1) appObjects(namespace, `app-${app}`).forEach(add);
  byKind.set(
    'Pod',
    Array.from({ length: podCount }, (_, index) => pod(index, index < brokenCount)),
  );
  byKind.set(
    'Event',
    Array.from({ length: brokenCount }, (_, index) => backOff(index)),
  );
  return byKind;
}

const percentile = (sorted: number[], fraction: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
const rssMiB = (): number => process.memoryUsage().rss / 2 ** 20;
const settle = (): void => {
  for (let round = 0; round < 3; round += 1) global.gc?.();
};

const objects = clusterObjects();
settle();
const rssWithout = rssMiB();
const feeds = new Map<string, (change: KindChange) => void>();
const source = (kind: WatchedKind, onChange: (change: KindChange) => void): KindSource => {
  feeds.set(kind.kind, onChange);
  onChange({ type: 'relisted', objects: (objects.get(kind.kind) ?? []).map((object) => slimObject(object, kind.kind)) });
  return { synced: Promise.resolve(), stop: () => feeds.delete(kind.kind) };
};
const engine = new ProblemsEngine({
  cluster: 'bench',
  rest: (): RestClient => {
    throw new Error('the bench feeds the engine itself');
  },
  source,
  config: problemsSchema.parse({}),
  analyzers: allAnalyzers,
  clock: Date.now,
  logger: createLogger('silent'),
});
const cpuStart = process.cpuUsage();
const started = performance.now();
await engine.start();
const firstComplete = performance.now() - started;
const startCpu = process.cpuUsage(cpuStart);
const crashLoops = engine.findings().filter((finding) => finding.reason === 'CrashLoopBackOff').length;
settle();
const rssWith = rssMiB();

// 20 pod changes per second: a healthy pod starts crashing (its finding is awaited) and an earlier one recovers.
const latencies: number[] = [];
let changed = '';
let changedAt = 0;
engine.onChange((change) => {
  if (change.type === 'added' && change.finding.reason === 'CrashLoopBackOff' && change.finding.object.name === changed)
    latencies.push(performance.now() - changedAt);
});
const putPod = (object: KubeThing): void => feeds.get('Pod')!({ type: 'put', object: slimObject(object, 'Pod') });
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
let previous: number | undefined;
for (let second = 0; second < changeSeconds; second += 1) {
  const tick = performance.now();
  for (let pair = 0; pair < 10; pair += 1) {
    const index = brokenCount + ((second * 10 + pair) % (podCount - brokenCount));
    const crashing = pod(index, true);
    changed = crashing.metadata!.name!;
    changedAt = performance.now();
    putPod(crashing);
    if (previous !== undefined) putPod(pod(previous, false));
    previous = index;
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - tick))));
}
const cpu = process.cpuUsage(cpuBefore);
const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore)) * 100;
latencies.sort((left, right) => left - right);
engine.close();

console.log(
  `pods ${podCount}, broken ${brokenCount}: first complete set of findings ${firstComplete.toFixed(0)} ms (CPU ${((startCpu.user + startCpu.system) / 1000).toFixed(0)} ms; ${crashLoops} crash loops, ${engine.findings().length} findings)`,
);
console.log(
  `change → finding (listener): p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms, max ${(latencies.at(-1) ?? Number.NaN).toFixed(2)} ms (${latencies.length} changes)`,
);
console.log(`CPU of the engine at 20 pod changes/s: ${cpuPercent.toFixed(2)} % of one core (${changeSeconds} s)`);
console.log(
  `RSS: the objects alone ${rssWithout.toFixed(0)} MiB, with the engine ${rssWith.toFixed(0)} MiB (+${(rssWith - rssWithout).toFixed(0)} MiB, +${(((rssWith - rssWithout) / rssWithout) * 100).toFixed(0)} %)`,
);
