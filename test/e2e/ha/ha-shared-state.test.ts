import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { serveDemoChartRepository, type ChartRepository } from '../../helpers/chart-repository.js';
import { startPostgres, type RunningPostgres } from '../../helpers/postgres.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Short-lived state redeemed on another replica than the one that made it (ADR 0032): three
// replicas on one throw-away PostgreSQL and one JWT signing key, on the real test cluster.
let postgres: RunningPostgres;
let replicas: [TestService, TestService, TestService];
let config: Record<string, unknown>;
let charts: ChartRepository;
const namespace = useNamespace('ha-term');
const own = useNamespace('ha-term-ph');
const drains = useNamespace('ha-drain');
const nodes = [uniqueName('ha-drain-a'), uniqueName('ha-drain-b')] as const;

beforeAll(async () => {
  postgres = await startPostgres();
  charts = await serveDemoChartRepository();
  config = {
    // The fixture chart repository is http on 127.0.0.1: allowed only with these keys.
    helm: { allow_http: true, allow_private_urls: true },
    database: { url: postgres.url, timeout: '2s' },
    authorization: { jwt: { signing_key: randomBytes(32).toString('hex') } },
    kubernetes: { namespace: own.name },
  };
  const started: TestService[] = [];
  for (let index = 0; index < 3; index += 1) started.push(await startTestService({ config }));
  replicas = started as [TestService, TestService, TestService];
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Pod\nmetadata: {name: shell}\nspec:\n  containers:\n  - {name: main, image: busybox}`,
    namespace.name,
  );
  await waitFor(
    async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', 'shell', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
  );
});

afterAll(async () => {
  await Promise.all((replicas ?? []).map((replica) => replica.close()));
  postgres?.remove();
  charts?.close();
  await tryKubectl(clusterKubeconfig(), ['delete', 'node', ...nodes, '--wait=false']);
});

/** The handshake status of a terminal WebSocket (an accepted one is closed at once) and, when refused, the body's reason. */
function handshake(replica: TestService, ticket: string): Promise<{ status: number; reason?: string }> {
  const url = `${replica.url.replace('http', 'ws')}/api/pods/shell/terminal?namespace=${namespace.name}&ticket=${ticket}&shell=/bin/sh`;
  const socket = new WebSocket(url, ['pilothouse.terminal.v1']);
  return new Promise((resolve) => {
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, reason: (JSON.parse(text) as { details: { reason: string } }).details.reason }));
    });
    socket.on('error', () => resolve({ status: -1 }));
    socket.on('open', () => {
      socket.close();
      resolve({ status: 101 });
    });
  });
}

describe('terminal tickets across replicas', () => {
  it('a ticket issued on A opens the terminal on B once; C and A then refuse it; an unknown one is refused everywhere', async () => {
    const [a, b, c] = replicas;
    const token = await a.login();
    const issued = await a.api('POST', '/api/pods/shell/terminal/ticket', { token, body: { namespace: namespace.name } });
    expect(issued.status).toBe(201);
    const ticket = issued.body.ticket as string;
    expect(await handshake(b, ticket)).toEqual({ status: 101 });
    expect(await handshake(c, ticket)).toEqual({ status: 401, reason: 'invalid_ticket' });
    expect(await handshake(a, ticket)).toEqual({ status: 401, reason: 'invalid_ticket' });
    expect(await handshake(b, 'made-up')).toEqual({ status: 401, reason: 'invalid_ticket' });
  });

  it('the same ticket sent to all three at once opens exactly one terminal', async () => {
    const [a] = replicas;
    const token = await a.login();
    const ticket = (await a.api('POST', '/api/pods/shell/terminal/ticket', { token, body: { namespace: namespace.name } })).body.ticket as string;
    const outcomes = await Promise.all(replicas.map((replica) => handshake(replica, ticket)));
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([101, 401, 401]);
  });
});

/** A KWOK node of our own with one evictable pod and one a PodDisruptionBudget guards. */
async function nodeWithPods(node: string): Promise<void> {
  const taint = 'pilothouse.dev/ha-drain-test';
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Node\nmetadata:\n  name: ${node}\n  annotations: {kwok.x-k8s.io/node: fake}\n  labels: {kubernetes.io/hostname: ${node}, type: kwok}\nspec:\n  taints: [{key: ${taint}, value: "true", effect: NoSchedule}]`,
  );
  const resources = { cpu: '8', memory: '16Gi', pods: '110' };
  await runKubectl(clusterKubeconfig(), [
    'patch',
    'node',
    node,
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify({ status: { capacity: resources, allocatable: resources } }),
  ]);
  const deployment = (name: string): string =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n      nodeName: ${node}\n      containers: [{name: main, image: busybox}]`;
  const guard = `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: guarded-${node}}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: guarded-${node}}}`;
  await applyYaml(clusterKubeconfig(), [deployment(`free-${node}`), deployment(`guarded-${node}`), guard].join('\n---\n'), drains.name);
  await waitFor(async () => {
    const output = await runKubectl(clusterKubeconfig(), [
      'get',
      'pods',
      '-n',
      drains.name,
      '--field-selector',
      `spec.nodeName=${node},status.phase=Running`,
      '-o',
      'name',
    ]);
    return output.split('\n').filter(Boolean).length === 2;
  });
}

interface DrainEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Reads a drain's SSE progress on `replica` to its result. */
async function progress(replica: TestService, token: string, id: string): Promise<{ status: number; events: DrainEvent[] }> {
  const response = await fetch(`${replica.url}/api/node/drain/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  if (response.status !== 200) return { status: response.status, events: [] };
  const events = (await response.text())
    .split('\n\n')
    .filter((block) => block.includes('event:'))
    .map((block) => ({
      event: /event: (.*)/.exec(block)?.[1] ?? '',
      data: JSON.parse(/data: (.*)/.exec(block)?.[1] ?? '{}') as Record<string, unknown>,
    }));
  return { status: response.status, events };
}

describe('drain jobs across replicas', () => {
  it('a drain started on A shows the same progress and result on B and C', { timeout: 90_000 }, async () => {
    const [a, b, c] = replicas;
    await nodeWithPods(nodes[0]);
    const token = await a.login();
    const started = await a.api('POST', '/api/node/drain', { token, body: { name: nodes[0], timeoutSeconds: 4, gracePeriodSeconds: 0 } });
    expect(started.status).toBe(202);
    const [onB, onC] = await Promise.all([progress(b, token, started.body.id as string), progress(c, token, started.body.id as string)]);
    expect(onB.status).toBe(200);
    expect(onB.events.map((event) => [event.event, event.data.status ?? ''])).toEqual([
      ['cordoned', ''],
      ...onB.events.slice(1, -1).map((event) => ['pod', event.data.status]),
      ['result', 'failed'],
    ]);
    expect(
      onB.events
        .filter((event) => event.event === 'pod')
        .map((event) => [event.data.name, event.data.status])
        .sort(),
    ).toEqual([
      [expect.stringMatching(new RegExp(`^free-${nodes[0]}-`)), 'evicted'],
      [expect.stringMatching(new RegExp(`^guarded-${nodes[0]}-`)), 'failed'],
    ]);
    expect(onB.events.at(-1)?.data).toMatchObject({ status: 'failed', evicted: 1 });
    expect(onC.events).toEqual(onB.events);
    expect((await progress(a, token, started.body.id as string)).events).toEqual(onB.events);
  });

  it('a drain whose replica stops before it finishes ends as failed (abandoned) on the others once its heartbeat is stale', { timeout: 90_000 }, async () => {
    const [, b, c] = replicas;
    await nodeWithPods(nodes[1]);
    const doomed = await startTestService({ config });
    const token = await doomed.login();
    const started = await doomed.api('POST', '/api/node/drain', { token, body: { name: nodes[1], timeoutSeconds: 40, gracePeriodSeconds: 0 } });
    expect(started.status).toBe(202);
    await waitFor(async () => (await runKubectl(clusterKubeconfig(), ['get', 'node', nodes[1], '-o', 'jsonpath={.spec.unschedulable}'])) === 'true');
    await doomed.close();
    // Abandoned (its heartbeat stale), not ended by its own 40 s timeout.
    const onB = await progress(b, token, started.body.id as string);
    expect(onB.events.at(-1)).toMatchObject({ event: 'result', data: { status: 'failed', message: expect.stringContaining('abandoned') } });
    expect((await progress(c, token, started.body.id as string)).events.at(-1)).toEqual(onB.events.at(-1));
  });
});

describe('helm repositories across replicas', () => {
  const helmNamespace = useNamespace('ha-helm');

  it('a repository added on A is listed on B, searched and installed from on C; removed on C it is gone on A and B', { timeout: 120_000 }, async () => {
    const [a, b, c] = replicas;
    const token = await a.login();
    const call = (replica: TestService, method: string, path: string, body?: unknown) => replica.api(method, path, { token, body });
    expect((await call(a, 'POST', '/api/helm/repositories', { name: 'shared', url: charts.url })).status).toBe(201);
    expect((await call(b, 'GET', '/api/helm/repositories')).body).toEqual({ items: [{ name: 'shared', url: charts.url }] });
    const search = await call(c, 'GET', '/api/helm/charts?keyword=demo');
    expect(search.body.items).toEqual([expect.objectContaining({ name: 'shared/demo', version: '0.1.0' })]);
    const installed = await call(c, 'POST', '/api/helm/install', { name: 'from-shared', namespace: helmNamespace.name, chart: 'shared/demo', values: {} });
    expect(installed.status).toBe(201);
    // A name in use elsewhere is repointed only with force, whichever replica asks.
    const repoint = await call(b, 'POST', '/api/helm/repositories', { name: 'shared', url: `${charts.url}/other` });
    expect(repoint).toMatchObject({ status: 400, body: { details: { reason: 'repository_exists' } } });
    expect((await call(c, 'DELETE', '/api/helm/repositories/shared')).body).toEqual({ name: 'shared', removed: true });
    expect((await call(a, 'GET', '/api/helm/repositories')).body).toEqual({ items: [] });
    expect((await call(b, 'DELETE', '/api/helm/repositories/shared')).status).toBe(404);
    const gone = await call(a, 'POST', '/api/helm/install', { name: 'after-removal', namespace: helmNamespace.name, chart: 'shared/demo', values: {} });
    expect(gone.status).toBeGreaterThanOrEqual(400);
    // B's own helm home follows at its next helm command that reads repositories.
    const searched = await call(b, 'GET', '/api/helm/charts?keyword=demo');
    expect(JSON.stringify(searched.body)).not.toContain('shared/demo');
    expect(readFileSync(join(b.dataDir, 'helm', 'config', 'repositories.yaml'), 'utf8')).not.toContain('shared');
  });
});
