// How to run: `make bench` (or BENCH_CLUSTER_PODS=1000 to try a smaller size). Many clusters from one Pilothouse
// (issue 29, ADR 0035): starts three real clusters of its own (`testcluster up`: the home cluster "home" and two more,
// "b" and "c"; the shared test cluster is not touched, so 30,000 pods never slow anyone's tests), creates
// BENCH_CLUSTER_PODS (default 10,000) KWOK pods in 10 namespaces of each (left unscheduled, so that neither a
// scheduler nor KWOK changes them while lists are measured), then measures side by side:
//  - a single-cluster Pilothouse (home only) and a three-cluster one (`clusters:` naming b and c): RSS at start,
//    the first (cold) list of all pods per cluster (`GET /api/k8s/pods?cluster=NAME`), BENCH_SAMPLES rounds
//    (default 3), each by a new process, the three-cluster process listing its clusters in a rotated order;
//    then warm lists per cluster and the RSS with every cluster's pods cached;
//  - another cluster unreachable, on the running three-cluster process: b's API server frozen (SIGSTOP: it accepts
//    connections and never answers) and then c killed (SIGKILL: connections refused): how soon
//    `GET /api/clusters` says it is down, the home cluster's list times meanwhile, and how long a list on the
//    unreachable cluster takes; last, a new process started while b and c are unreachable: its start and its
//    first home list.
// Pilothouse runs as a child process (the build, as `make bench` makes it) with auth off. Medians are printed.
// Tears everything down (its clusters and their folders). Never part of the tests; no test asserts these times.
import { type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { KubeClients, loadKubeConfig } from '../src/kube/clients.js';
import { startSecondCluster, type SecondCluster } from '../test/helpers/second-cluster.js';
import { inParallel, startPilothouse, type BenchService } from './helpers.js';

const podCount = Number(process.env.BENCH_CLUSTER_PODS ?? 10_000);
const samples = Number(process.env.BENCH_SAMPLES ?? 3);
const names = ['home', 'b', 'c'] as const;
type ClusterName = (typeof names)[number];
const namespaces = Array.from({ length: 10 }, (_, index) => `clusters-${index}`);

interface BenchCluster {
  name: ClusterName;
  cluster: SecondCluster;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** The middle value (the lower of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

function rssMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Processes that did not exit within 30 s of SIGTERM (then killed): which. */
const slowExits: string[] = [];

/**
 * Stops a Pilothouse like bench/helpers.ts stopPilothouse, but never waits for ever: a process still running
 * 30 s after SIGTERM is noted (printed with the figures) and killed.
 */
async function stopPilothouse(service: BenchService, what: string): Promise<void> {
  const child = service.child;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const late = await Promise.race([exited.then(() => false), sleep(30_000).then(() => true)]);
    if (late) {
      slowExits.push(what);
      child.kill('SIGKILL');
      await exited;
    }
  }
  rmSync(service.dataDir, { recursive: true, force: true });
}

/** Creates the namespaces and `podCount` unscheduled pods in one cluster (16 requests in flight, as scale.bench.ts). */
async function fill(cluster: SecondCluster): Promise<void> {
  const kube = new KubeClients(loadKubeConfig({ kubeconfigPath: cluster.kubeconfig }), { kubeconfigPath: cluster.kubeconfig });
  const rest = kube.forIdentity().rest;
  try {
    for (const namespace of namespaces)
      await rest.json('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
    await inParallel(podCount, 16, async (index) => {
      await rest.json('POST', `/api/v1/namespaces/${namespaces[index % namespaces.length]}/pods`, {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `pod-${index}`, labels: { app: `app-${index % 50}`, bench: 'clusters' } },
          spec: { schedulerName: 'pilothouse-bench-unscheduled', containers: [{ name: 'app', image: 'registry.example/app:1.0' }] },
        },
      });
    });
  } finally {
    await rest.close();
  }
}

interface ListAnswer {
  status: number;
  total: number;
}

/** One full list of all pods on `cluster` (uncompressed), as scale.bench.ts measures lists. */
async function list(url: string, cluster: string): Promise<ListAnswer> {
  // Bounded, so that a list that never ends is a figure (status 0 after 60 s) and not a hung benchmark.
  const response = await fetch(`${url}/api/k8s/pods?cluster=${cluster}`, {
    headers: { 'Accept-Encoding': 'identity' },
    signal: AbortSignal.timeout(60_000),
  }).catch(() => undefined);
  if (!response) return { status: 0, total: 0 };
  const body = (await response.json()) as { total?: number };
  return { status: response.status, total: body.total ?? 0 };
}

/** A list that must hold every pod: its time in ms. */
async function fullList(url: string, cluster: string): Promise<number> {
  const answer = await timed(() => list(url, cluster));
  if (answer.value.status !== 200 || answer.value.total < podCount)
    throw new Error(`the list on ${cluster} answered ${answer.value.status} with ${answer.value.total} of ${podCount} pods`);
  return answer.ms;
}

/** Whether `GET /api/clusters` says `cluster` is reachable. */
async function reachable(url: string, cluster: string): Promise<boolean> {
  const body = (await (await fetch(`${url}/api/clusters`)).json()) as { items: { name: string; reachable: boolean }[] };
  return body.items.find((item) => item.name === cluster)?.reachable ?? false;
}

function startSingle(clusters: BenchCluster[]): Promise<BenchService> {
  return startPilothouse(clusters[0]!.cluster.kubeconfig, ['--no-auth'], { config: 'cluster: {name: home}\n' });
}

function startMulti(clusters: BenchCluster[]): Promise<BenchService> {
  const more = clusters.slice(1).map((entry) => `  - {name: ${entry.name}, kubeconfig: ${JSON.stringify(entry.cluster.kubeconfig)}}`);
  return startPilothouse(clusters[0]!.cluster.kubeconfig, ['--no-auth'], { config: `cluster: {name: home}\nclusters:\n${more.join('\n')}\n` });
}

/** Per cluster: cold list times (one per round), warm list times; RSS at start (per round) and cached. */
interface ServiceFigures {
  cold: Map<string, number[]>;
  warm: Map<string, number[]>;
  /** From spawning the process until `/api/health` answers (ms), per round. */
  start: number[];
  rssStart: number[];
  rssCached: number;
}

/**
 * `samples` rounds of a new process each (its start RSS and first list per cluster, in an order rotated each round
 * so every cluster is listed first once), then 5 warm lists per cluster on the last process; leaves it running.
 */
async function measureService(start: () => Promise<BenchService>, clusters: string[]): Promise<{ figures: ServiceFigures; service: BenchService }> {
  const figures: ServiceFigures = { cold: new Map(), warm: new Map(), start: [], rssStart: [], rssCached: 0 };
  let service: BenchService | undefined;
  for (let round = 0; round < samples; round += 1) {
    if (service) await stopPilothouse(service, `a ${clusters.length}-cluster process after its cold lists (round ${round})`);
    const begun = await timed(start);
    service = begun.value;
    figures.start.push(begun.ms);
    await sleep(2000);
    figures.rssStart.push(rssMiB(service.child));
    const order = [...clusters.slice(round % clusters.length), ...clusters.slice(0, round % clusters.length)];
    for (const cluster of order) figures.cold.set(cluster, [...(figures.cold.get(cluster) ?? []), await fullList(service.url, cluster)]);
  }
  for (const cluster of clusters) {
    const times: number[] = [];
    for (let round = 0; round < 5; round += 1) times.push(await fullList(service!.url, cluster));
    figures.warm.set(cluster, times);
  }
  figures.rssCached = rssMiB(service!.child);
  return { figures, service: service! };
}

/** What happened while one cluster was unreachable. */
interface Outage {
  how: string;
  cluster: string;
  /** From the fault until `GET /api/clusters` said it is down (ms). */
  markedDown: number;
  /** The home cluster's list times from the fault until 5 s after it was marked down. */
  homeLists: number[];
  /** A list on the unreachable cluster before it was marked down (ms, its status), and after. */
  before: { ms: number; status: number };
  after: { ms: number; status: number };
}

/** The pids of a cluster's API server (its command line names the cluster's folder). */
function apiServerPids(cluster: SecondCluster): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      return command.includes(cluster.directory) && command.includes('kube-apiserver') ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** Sends `name` to one of our clusters' processes (it may be gone already). */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone
  }
}

/** Home lists every 250 ms until `until()` resolves (in parallel with it): their times. */
async function homeListsUntil(url: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  const finish = (): void => {
    done = true;
  };
  until.then(finish, finish);
  const times: number[] = [];
  while (!done) {
    times.push(await fullList(url, 'home'));
    await sleep(250);
  }
  return times;
}

/** Waits until `cluster` is down in `GET /api/clusters` (polled every 250 ms); the ms from `since`. */
async function untilDown(url: string, cluster: string, since: number): Promise<number> {
  while (await reachable(url, cluster)) await sleep(250);
  return performance.now() - since;
}

async function timedList(url: string, cluster: string): Promise<{ ms: number; status: number }> {
  const answer = await timed(() => list(url, cluster));
  return { ms: answer.ms, status: answer.value.status };
}

/** Makes `cluster` unreachable with `fault`, and measures on the running `service` until 5 s after it is marked down. */
async function outage(service: BenchService, how: string, cluster: BenchCluster, fault: () => Promise<void>): Promise<Outage> {
  const since = performance.now();
  await fault();
  const window = (async () => {
    const before = await timedList(service.url, cluster.name);
    const markedDown = await untilDown(service.url, cluster.name, since);
    await sleep(5000);
    return { before, markedDown, after: await timedList(service.url, cluster.name) };
  })();
  const homeLists = await homeListsUntil(service.url, window);
  return { how, cluster: cluster.name, homeLists, ...(await window) };
}

/** A new three-cluster process while b and c are unreachable: its start and its first and warm home lists. */
async function startWhileDown(clusters: BenchCluster[]): Promise<{ start: number; cold: number; warm: number }> {
  const started = await timed(() => startMulti(clusters));
  try {
    const cold = await fullList(started.value.url, 'home');
    const warm: number[] = [];
    for (let round = 0; round < 5; round += 1) warm.push(await fullList(started.value.url, 'home'));
    return { start: started.ms, cold, warm: median(warm) };
  } finally {
    await stopPilothouse(started.value, 'the process started while b and c were unreachable');
  }
}

const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const msText = (ms: number): string => `${ms.toFixed(0)} ms`;

function printLists(single: ServiceFigures, multi: ServiceFigures): void {
  console.log(
    `\n| Pilothouse | cluster | start (to /api/health) | cold list (median of ${samples}, each by a new process) | lowest–highest | warm list (median of 5) | RSS start → all cached |`,
  );
  console.log('|---|---|---|---|---|---|---|');
  const rows: [string, ServiceFigures, string][] = [
    ['one cluster', single, 'home'],
    ...names.map((name): [string, ServiceFigures, string] => ['three clusters', multi, name]),
  ];
  for (const [label, figures, cluster] of rows) {
    const cold = figures.cold.get(cluster) ?? [];
    const first = cluster === 'home';
    const start = first ? s(median(figures.start)) : '';
    const rss = first ? `${median(figures.rssStart).toFixed(0)} → ${figures.rssCached.toFixed(0)} MiB` : '';
    console.log(
      `| ${label} | ${cluster} | ${start} | ${s(median(cold))} | ${s(Math.min(...cold))}–${s(Math.max(...cold))} | ${msText(median(figures.warm.get(cluster) ?? []))} | ${rss} |`,
    );
  }
}

function printOutages(outages: Outage[], restart: { start: number; cold: number; warm: number } | undefined, warmHome: number): void {
  console.log(
    `\n| another cluster unreachable | marked down after | home lists meanwhile: count, median, max (warm before: ${msText(warmHome)}) | its own list before → after marked down |`,
  );
  console.log('|---|---|---|---|');
  for (const entry of outages)
    console.log(
      `| ${entry.cluster} ${entry.how} | ${s(entry.markedDown)} | ${entry.homeLists.length}, ${msText(median(entry.homeLists))}, ${msText(Math.max(...entry.homeLists))} | ${msText(entry.before.ms)} (${entry.before.status}) → ${msText(entry.after.ms)} (${entry.after.status}) |`,
    );
  if (restart)
    console.log(`| new process while b and c are unreachable | start ${s(restart.start)} | home cold ${s(restart.cold)}, warm ${msText(restart.warm)} | |`);
}

/** Started clusters, stopped on the way out (also on Ctrl-C). */
const started: BenchCluster[] = [];
async function stopClusters(): Promise<void> {
  for (const entry of started) {
    for (const pid of apiServerPids(entry.cluster)) signal(pid, 'SIGCONT');
    await entry.cluster.stop();
  }
}
for (const exitSignal of ['SIGINT', 'SIGTERM'] as const)
  process.once(exitSignal, () => {
    void stopClusters().finally(() => process.exit(130));
  });

async function measure(clusters: BenchCluster[]): Promise<void> {
  const filled = await timed(() => Promise.all(clusters.map((entry) => fill(entry.cluster))));
  console.error(`created ${podCount} pods on each of ${clusters.length} clusters (${(filled.ms / 1000).toFixed(0)} s); measuring`);
  const single = await measureService(() => startSingle(clusters), ['home']);
  await stopPilothouse(single.service, 'the one-cluster process after its warm lists');
  const multi = await measureService(() => startMulti(clusters), [...names]);
  const outages: Outage[] = [];
  let restart: { start: number; cold: number; warm: number } | undefined;
  try {
    const [, b, c] = clusters as [BenchCluster, BenchCluster, BenchCluster];
    outages.push(
      await outage(multi.service, 'frozen (SIGSTOP)', b, async () => {
        for (const pid of apiServerPids(b.cluster)) signal(pid, 'SIGSTOP');
      }),
    );
    outages.push(await outage(multi.service, 'killed (SIGKILL)', c, () => c.cluster.kill()));
    restart = await startWhileDown(clusters);
  } finally {
    await stopPilothouse(multi.service, 'the three-cluster process after the outages');
    printLists(single.figures, multi.figures);
    printOutages(outages, restart, median(multi.figures.warm.get('home') ?? []));
    for (const what of slowExits) console.log(`still running 30 s after SIGTERM (then killed): ${what}`);
    console.log(
      `\nload average at the end (1, 5, 15 min; ${cpus().length} cores): ${loadavg()
        .map((value) => value.toFixed(1))
        .join(', ')}`,
    );
  }
}

async function main(): Promise<void> {
  try {
    for (const name of names) started.push({ name, cluster: await startSecondCluster(1) });
    await measure(started);
  } finally {
    await stopClusters();
  }
}

await main();
