// How to run: `make bench` (or BENCH_TEAM_PODS=1000 to try a smaller cluster). A team on one Pilothouse:
// BENCH_TEAM_USERS (default 50) SSO users of a real OpenID provider (test/helpers/oidc-provider.ts), each
// acting toward the cluster as themselves (`impersonation.mode: user`, the group oidc:bench-team may view
// everything), on a cluster of BENCH_TEAM_PODS pods (default 10,000; left unscheduled, so that the scheduler's and
// KWOK's own updates of 10,000 new pods, which take many minutes here, are not part of the measured changes). Measures the RSS and the warm list
// p50 of one user, then of all users; then 4 live lists (SSE) per user while 20 pods change per second:
// whether every watcher got every change, delivery p50/p99 (patch sent → event read) and the peak RSS.
// Pilothouse runs as a child process. Never part of the tests; no test asserts these figures.
import { type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { importJWK, SignJWT } from 'jose';
import { KubeClients, loadKubeConfig } from '../src/kube/clients.js';
import { startOidcProvider } from '../test/helpers/oidc-provider.js';
import { freePort, inParallel, startPilothouse, stopPilothouse } from './helpers.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const podCount = Number(process.env.BENCH_TEAM_PODS ?? 10_000);
const userCount = Number(process.env.BENCH_TEAM_USERS ?? 50);
const watchersPerUser = 4;
const changesPerSecond = 20;
const changeSeconds = 15;
const namespaces = Array.from({ length: 10 }, (_, index) => `team-${process.pid}-${index}`);
const binding = `bench-team-${process.pid}`;
const rest = new KubeClients(loadKubeConfig({ kubeconfigPath: kubeconfig }), { kubeconfigPath: kubeconfig }).forIdentity().rest;

function rssMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

async function createPods(): Promise<void> {
  for (const namespace of namespaces)
    await rest.json('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
  await inParallel(podCount, 16, async (index) => {
    await rest.json('POST', `/api/v1/namespaces/${namespaces[index % namespaces.length]}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `pod-${index}`, labels: { app: `app-${index % 50}` } },
        // No scheduler binds them, so neither the scheduler nor KWOK changes them: the bench's own changes are the only events.
        spec: { schedulerName: 'pilothouse-bench-unscheduled', containers: [{ name: 'app', image: 'registry.example/app:1.0' }] },
      },
    });
  });
  await rest.json('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: binding },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'oidc:bench-team' }],
    },
  });
}

/** One full pod list as a browser fetches it (gzip, bytes drained); its time in ms. */
function list(url: string, token: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpGet(`${url}/api/k8s/pods`, { agent: false, headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'gzip' } }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => (response.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`HTTP ${response.statusCode}`))));
    });
    request.on('error', reject);
  });
}

/** One SSE live list of all pods: when its snapshot came, and when each watched change (pod name) was first read. */
interface Watcher {
  snapshot: boolean;
  seen: Map<string, number>;
  close(): void;
}

function watch(url: string, token: string, changed: Map<string, number>): Watcher {
  const watcher: Watcher = { snapshot: false, seen: new Map(), close: () => undefined };
  const request = httpGet(
    `${url}/api/k8s/pods/watch`,
    { agent: false, headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } },
    (response: IncomingMessage) => {
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: snapshot')) watcher.snapshot = true;
          else if (block.startsWith('event: error')) console.error(`watcher dropped: ${block.slice(0, 200)}`);
          else if (block.startsWith('event: ')) {
            const name = /"name":"([^"]+)"/.exec(block)?.[1];
            if (name && changed.has(name) && !watcher.seen.has(name)) watcher.seen.set(name, performance.now());
          }
        }
      });
    },
  );
  request.on('error', () => undefined);
  watcher.close = () => request.destroy();
  return watcher;
}

async function main(): Promise<void> {
  const created = performance.now();
  await createPods();
  console.error(`created ${podCount} pods (${((performance.now() - created) / 1000).toFixed(0)} s); measuring`);
  const port = await freePort();
  const op = await startOidcProvider({
    clients: [{ client_id: 'pilothouse', client_secret: 'bench-client-secret', redirect_uris: [`http://127.0.0.1:${port}/api/auth/oidc/callback`] }],
    users: [],
  });
  process.env.BENCH_OIDC_CLIENT_SECRET = 'bench-client-secret';
  const config = [
    'oidc:',
    `  issuer: ${JSON.stringify(op.issuer)}`,
    '  client_id: pilothouse',
    '  client_secret: ${BENCH_OIDC_CLIENT_SECRET}',
    `  redirect_url: "http://127.0.0.1:${port}/api/auth/oidc/callback"`,
    `  ca_file: ${JSON.stringify(op.caFile)}`,
    '  role_mappings: {groups: {bench-team: viewer}}',
    'authorization:',
    '  impersonation: {enabled: true, mode: user, mappings: {viewer: system:anonymous, user: system:anonymous, admin: system:anonymous}}',
    '',
  ].join('\n');
  const service = await startPilothouse(kubeconfig, ['--auth-mode', 'oidc'], { config, port });
  const key = op.signingKey();
  const signingKey = await importJWK(key, 'RS256');
  const tokens = await Promise.all(
    Array.from({ length: userCount }, (_, index) =>
      new SignJWT({ sub: `sub-${index}`, preferred_username: `member-${index}`, groups: ['bench-team'], aud: 'pilothouse' })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid })
        .setIssuer(op.issuer)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(signingKey),
    ),
  );
  const watchers: Watcher[] = [];
  try {
    const rssStart = rssMiB(service.child);
    const cold = await list(service.url, tokens[0]!);
    const single: number[] = [];
    for (let round = 0; round < 30; round += 1) single.push(await list(service.url, tokens[0]!));
    const rssOne = rssMiB(service.child);
    const firsts: number[] = [];
    for (const token of tokens.slice(1)) firsts.push(await list(service.url, token));
    const team: number[] = [];
    for (let round = 0; round < 5; round += 1) for (const token of tokens) team.push(await list(service.url, token));
    const rssTeam = rssMiB(service.child);

    const changed = new Map<string, number>();
    for (const token of tokens) for (let index = 0; index < watchersPerUser; index += 1) watchers.push(watch(service.url, token, changed));
    let peak = rssMiB(service.child);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(service.child))), 250);
    const deadline = performance.now() + 120_000;
    while (!watchers.every((watcher) => watcher.snapshot) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const ready = watchers.filter((watcher) => watcher.snapshot).length;
    const rssWatching = rssMiB(service.child);
    const total = changesPerSecond * changeSeconds;
    const begin = performance.now();
    for (let index = 0; index < total; index += 1) {
      const due = begin + (index * 1000) / changesPerSecond;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      const target = (index * 37) % podCount;
      const name = `pod-${target}`;
      changed.set(name, performance.now());
      void rest
        .json('PATCH', `/api/v1/namespaces/${namespaces[target % namespaces.length]}/pods/${name}`, {
          body: { metadata: { labels: { tick: String(index) } } },
          contentType: 'application/merge-patch+json',
        })
        .catch((error: unknown) => console.error(`patch failed: ${String(error)}`));
    }
    const settle = performance.now() + 15_000;
    while (!watchers.every((watcher) => watcher.seen.size === changed.size) && performance.now() < settle)
      await new Promise((resolve) => setTimeout(resolve, 200));
    clearInterval(sampler);
    const delays = watchers.flatMap((watcher) => [...watcher.seen].map(([name, at]) => at - changed.get(name)!));
    const missed = watchers.reduce((sum, watcher) => sum + (changed.size - watcher.seen.size), 0);

    const ms = (value: number): string => `${value.toFixed(1)} ms`;
    console.log(`${podCount} pods, ${userCount} SSO users (impersonation.mode: user), Pilothouse as a child process`);
    console.log('| measure | result |');
    console.log('|---|---|');
    console.log(
      `| RSS at start → after 1 user's lists → after ${userCount} users' lists | ${rssStart.toFixed(0)} → ${rssOne.toFixed(0)} → ${rssTeam.toFixed(0)} MiB |`,
    );
    console.log(`| first list of the first user | ${ms(cold)} |`);
    console.log(`| warm list p50 (p90), 1 user (30 lists) | ${ms(quantile(single, 0.5))} (${ms(quantile(single, 0.9))}) |`);
    console.log(`| first list of each other user, p50 (p90) | ${ms(quantile(firsts, 0.5))} (${ms(quantile(firsts, 0.9))}) |`);
    console.log(
      `| warm list p50 (p90), ${userCount} users (5 rounds) | ${ms(quantile(team, 0.5))} (${ms(quantile(team, 0.9))}); ${(quantile(team, 0.5) / quantile(single, 0.5)).toFixed(2)}× one user's p50 |`,
    );
    console.log(`| ${watchers.length} live lists (${watchersPerUser} per user): with their snapshot | ${ready}; RSS ${rssWatching.toFixed(0)} MiB |`);
    console.log(
      `| ${total} pod changes at ${changesPerSecond}/s: events missed | ${missed} of ${total * watchers.length}; delivery p50 ${ms(quantile(delays, 0.5))}, p99 ${ms(quantile(delays, 0.99))} |`,
    );
    console.log(`| peak RSS with the live lists | ${peak.toFixed(0)} MiB |`);
  } finally {
    for (const watcher of watchers) watcher.close();
    await stopPilothouse(service);
    await op.close();
    await rest.json('DELETE', `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${binding}`).catch(() => undefined);
    for (const namespace of namespaces) await rest.json('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => undefined);
    await rest.close();
  }
}

await main();
