// How to run: `make bench` (or BENCH_PODS=1000 to try one size). Creates KWOK pods on the test cluster
// (10 namespaces, bounded concurrency), then measures side by side in one run: the API server's own
// JSON and Table lists, `kubectl get pods -A`, and a fresh Pilothouse (child process): the first (cold)
// list, warm lists, 8 concurrent clients, RSS at start and with the pods cached, and how soon a new pod
// shows in the list. The direct lists and the cold list are measured BENCH_SAMPLES times (default 5),
// interleaved, each cold list by a new Pilothouse process; medians are printed. Tears everything down.
// Never part of the tests; no test asserts these times.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { join } from 'node:path';
import { KubeClients, loadKubeConfig } from '../src/kube/clients.js';
import { inParallel, startPilothouse, stopPilothouse, type BenchService } from './helpers.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const kubectl = join(root, '.tools', 'bin', 'kubectl');
const sizes = (process.env.BENCH_PODS ?? '1000,10000,30000').split(',').map(Number);
const namespaces = Array.from({ length: 10 }, (_, index) => `scale-${process.pid}-${index}`);
const rest = new KubeClients(loadKubeConfig({ kubeconfigPath: kubeconfig }), { kubeconfigPath: kubeconfig }).forIdentity().rest;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function growTo(total: number, existing: number): Promise<void> {
  await inParallel(total - existing, 16, async (offset) => {
    const index = existing + offset;
    const namespace = namespaces[index % namespaces.length]!;
    await rest.json('POST', `/api/v1/namespaces/${namespace}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `pod-${index}`, labels: { app: `app-${index % 50}`, bench: 'scale' } },
        spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }] },
      },
    });
  });
}

function rssMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function listThroughPilothouse(url: string): Promise<number> {
  const response = await fetch(`${url}/api/k8s/pods`, { headers: { 'Accept-Encoding': 'identity' } });
  return ((await response.json()) as { total: number }).total;
}

/** One full list as a browser would fetch it (gzip), the bytes drained but not decompressed: the server's work, not the client's. */
function fetchCompressed(url: string, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpGet(`${url}/api/k8s/pods`, { agent, headers: { 'Accept-Encoding': 'gzip' } }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${response.statusCode}`))));
    });
    request.on('error', reject);
  });
}

async function concurrentLists(url: string, clients: number, seconds: number): Promise<number> {
  let done = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        await fetchCompressed(url, agent);
        done += 1;
      }
    }),
  );
  agent.destroy();
  return done / seconds;
}

interface Row {
  pods: number;
  apiJson: number;
  apiTable: number;
  kubectl: number;
  cold: number;
  /** The median of each round's cold ÷ API JSON, and the lowest and highest of them. */
  ratio: number;
  ratioRange: [number, number];
  warm: number;
  perSecond: number;
  rssStart: number;
  rssCached: number;
  visible: number;
}

/** The middle value (the lower of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** How many times the direct lists and Pilothouse's cold list are measured, interleaved, at each size (medians are printed). */
const samples = Number(process.env.BENCH_SAMPLES ?? 5);

const tableQuery = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io', query: { includeObject: 'Metadata' } };

async function measureAt(pods: number): Promise<Row> {
  const kubectlMs = (
    await timed(async () =>
      execFileSync(kubectl, ['--kubeconfig', kubeconfig, 'get', 'pods', '-A'], { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 }),
    )
  ).ms;
  // The cluster is never idle (KWOK updates pod status, events come and go): one sample of each can be off
  // by 2×. Each round lists straight from the API server (JSON, then Table), then a new Pilothouse process
  // makes its first list, so every ratio compares lists made under the same conditions.
  const apiJson: number[] = [];
  const apiTable: number[] = [];
  const colds: number[] = [];
  const starts: number[] = [];
  let pilothouse: BenchService | undefined;
  try {
    for (let round = 0; round < samples; round += 1) {
      apiJson.push((await timed(() => rest.json('GET', '/api/v1/pods'))).ms);
      apiTable.push((await timed(() => rest.json('GET', '/api/v1/pods', tableQuery))).ms);
      if (pilothouse) await stopPilothouse(pilothouse);
      pilothouse = await startPilothouse(kubeconfig, ['--no-auth']);
      starts.push(rssMiB(pilothouse.child));
      const cold = await timed(() => listThroughPilothouse(pilothouse!.url));
      if (cold.value < pods) throw new Error(`the first list had ${cold.value} of ${pods} pods`);
      colds.push(cold.ms);
    }
    const running = pilothouse!;
    let warm = Infinity;
    for (let round = 0; round < 5; round += 1) warm = Math.min(warm, (await timed(() => listThroughPilothouse(running.url))).ms);
    const perSecond = await concurrentLists(running.url, 8, 5);
    const rssCached = rssMiB(running.child);
    const name = `fresh-${pods}`;
    const created = performance.now();
    await rest.json('POST', `/api/v1/namespaces/${namespaces[0]}/pods`, {
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }] } },
    });
    for (;;) {
      const page = (await (await fetch(`${running.url}/api/k8s/pods?namespace=${namespaces[0]}&labelSelector=${encodeURIComponent('!bench')}`)).json()) as {
        items?: { name: string }[];
        error?: string;
      };
      if (!page.items) throw new Error(`list failed: ${page.error}`);
      if (page.items.some((item) => item.name === name)) break;
    }
    const visible = performance.now() - created;
    await rest.json('DELETE', `/api/v1/namespaces/${namespaces[0]}/pods/${name}`, { query: { gracePeriodSeconds: 0 } });
    const ratios = colds.map((cold, index) => cold / apiJson[index]!);
    return {
      pods,
      apiJson: median(apiJson),
      apiTable: median(apiTable),
      kubectl: kubectlMs,
      cold: median(colds),
      ratio: median(ratios),
      ratioRange: [Math.min(...ratios), Math.max(...ratios)],
      warm,
      perSecond,
      rssStart: median(starts),
      rssCached,
      visible,
    };
  } finally {
    if (pilothouse) await stopPilothouse(pilothouse);
  }
}

function print(rows: Row[]): void {
  const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `| pods | API server JSON | API server Table | kubectl get pods -A | Pilothouse cold | cold ÷ API JSON (lowest–highest of ${samples}) | warm | 8 clients | RSS start → cached | KiB/pod | new pod visible |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const perPod = ((row.rssCached - row.rssStart) * 1024) / row.pods;
    console.log(
      `| ${row.pods} | ${s(row.apiJson)} | ${s(row.apiTable)} | ${s(row.kubectl)} | ${s(row.cold)} | ${row.ratio.toFixed(2)}× (${row.ratioRange.map((ratio) => ratio.toFixed(2)).join('–')}) | ${s(row.warm)} | ${row.perSecond.toFixed(1)} lists/s | ${row.rssStart.toFixed(0)} → ${row.rssCached.toFixed(0)} MiB | ${perPod.toFixed(1)} | ${row.visible.toFixed(0)} ms |`,
    );
  }
}

async function main(): Promise<void> {
  for (const namespace of namespaces)
    await rest.json('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
  const rows: Row[] = [];
  let existing = 0;
  try {
    for (const size of sizes) {
      const grown = await timed(() => growTo(size, existing));
      existing = size;
      console.error(`created ${size} pods (${(grown.ms / 1000).toFixed(0)} s); measuring`);
      rows.push(await measureAt(size));
    }
  } finally {
    print(rows);
    for (const namespace of namespaces) await rest.json('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => undefined);
    await rest.close();
  }
}

await main();
