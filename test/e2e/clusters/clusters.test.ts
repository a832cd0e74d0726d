import { readFileSync, readdirSync } from 'node:fs';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { serveDemoChartRepository, type ChartRepository } from '../../helpers/chart-repository.js';
import { useSecondCluster } from '../../helpers/second-cluster.js';
import { followEvents, type Followed } from '../../helpers/sse-follow.js';
import { terminalSession } from '../../helpers/terminal-session.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Many clusters (ADR 0035) on two real clusters: `home` is the shared test cluster, `b` a second one started for
// this file. The same namespace exists on both, each with its own pod, so an answer from the wrong cluster shows.
const second = useSecondCluster();
const shared = useNamespace('clusters');
let service: TestService;
let repository: ChartRepository | undefined;
let viewer: { username: string; token: string };
let noPodsOnB: { username: string; token: string };

interface ClusterItem {
  name: string;
  source: string;
  reachable: boolean;
  version?: string;
  error?: string;
  access: { role: string; roles: string[]; write: boolean };
}

interface AuditItem {
  action: string;
  resource: string;
  decision: string;
  cluster?: string;
  outcome?: string;
  details: Record<string, unknown>;
}

const onB = (...args: string[]) => runKubectl(second.current.kubeconfig, args);
const podYaml = (name: string, annotations: Record<string, string> = {}): string =>
  [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    `  name: ${name}`,
    `  annotations: ${JSON.stringify(annotations)}`,
    'spec:',
    '  containers: [{name: app, image: busybox}]',
  ].join('\n');

async function waitRunning(kubeconfig: string, pod: string): Promise<void> {
  await waitFor(async () => (await runKubectl(kubeconfig, ['get', 'pod', pod, '-n', shared.name, '-o', 'jsonpath={.status.phase}'])) === 'Running', 60_000);
}

const get = (path: string, token = service.adminToken) => service.api('GET', path, { token });
const clusters = async (token = service.adminToken): Promise<ClusterItem[]> => (await get('/api/clusters', token)).body.items;
const names = (response: { body: { items?: { name: string }[] } }): string[] => (response.body.items ?? []).map((item) => item.name);
const audit = async (search: string): Promise<AuditItem[]> => (await get(`/api/audit?limit=1000&${search}`)).body.items;

const follow = (response: Response): Followed<any> => followEvents<any>(response);

/** The HTTP status a refused WebSocket handshake answered. */
function refusedStatus(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => {
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('error', () => resolve(0));
  });
}

beforeAll(async () => {
  await onB('create', 'namespace', shared.name);
  await waitFor(async () => (await tryKubectl(second.current.kubeconfig, ['get', 'serviceaccount', 'default', '-n', shared.name])).code === 0);
  await applyYaml(clusterKubeconfig(), podYaml('home-pod', { 'pilothouse.dev/logs': 'from home' }), shared.name);
  await applyYaml(second.current.kubeconfig, podYaml('b-pod', { 'pilothouse.dev/logs': 'from b\nsecond line' }), shared.name);
  await Promise.all([waitRunning(clusterKubeconfig(), 'home-pod'), waitRunning(second.current.kubeconfig, 'b-pod')]);
  repository = await serveDemoChartRepository();
  service = await startTestService({
    config: {
      clusters: [{ name: 'b', kubeconfig: second.current.kubeconfig }],
      helm: { allow_http: true, allow_private_urls: true },
      authorization: { roles: [{ name: 'no-pods-on-b', effect: 'deny', resources: ['pods'], verbs: ['*'], clusters: ['b'] }] },
    },
  });
  viewer = await service.createUser('viewer');
  noPodsOnB = await service.createUser('admin', { roles: ['no-pods-on-b'] });
  // b counts as reachable until its first probe ends: wait for the probe's answer (its version).
  await waitFor(async () => (await clusters()).find((item) => item.name === 'b')?.version !== undefined);
}, 180_000);

afterAll(async () => {
  await service?.close();
  repository?.close();
});

describe('GET /api/clusters', () => {
  it('lists the home cluster first and b, both reachable with their versions and the caller access there', async () => {
    const response = await get('/api/clusters');
    expect(response.status).toBe(200);
    expect(response.body.home).toBe('home');
    const items: ClusterItem[] = response.body.items;
    expect(items.map((item) => [item.name, item.source])).toEqual([
      ['home', 'home'],
      ['b', 'config'],
    ]);
    for (const item of items) {
      expect(item).toMatchObject({ reachable: true, version: expect.stringMatching(/^v1\./), access: { role: 'admin', write: true } });
      expect(item.error).toBeUndefined();
    }
    // No credentials or server addresses of b in the answer.
    expect(response.text).not.toContain(second.current.server);
  });

  it("gives a viewer write false on each cluster, and names a cluster-scoped rule only on that cluster's summary", async () => {
    for (const item of await clusters(viewer.token)) expect(item.access).toEqual({ role: 'viewer', roles: [], write: false });
    const scoped = await clusters(noPodsOnB.token);
    expect(scoped.find((item) => item.name === 'b')!.access).toMatchObject({ role: 'admin', roles: ['no-pods-on-b'], write: true });
    expect(scoped.find((item) => item.name === 'home')!.access).toMatchObject({ role: 'admin', roles: [], write: true });
  });
});

describe('?cluster= picks the cluster', () => {
  it("lists b's pods on b and the home cluster's at home, in the same namespace name", async () => {
    const onBList = await get(`/api/k8s/pods?namespace=${shared.name}&cluster=b`);
    expect(onBList.status).toBe(200);
    expect(names(onBList)).toEqual(['b-pod']);
    expect(names(await get(`/api/k8s/pods?namespace=${shared.name}`))).toEqual(['home-pod']);
    expect(names(await get(`/api/k8s/pods?namespace=${shared.name}&cluster=home`))).toEqual(['home-pod']);
    // One object read: b's pod is on b only.
    expect((await get(`/api/k8s/pods/b-pod?namespace=${shared.name}&cluster=b`)).status).toBe(200);
    expect((await get(`/api/k8s/pods/b-pod?namespace=${shared.name}`)).status).toBe(404);
    // b's nodes are its own (the second cluster has one KWOK node, the shared one more).
    const nodesOnB = names(await get('/api/k8s/nodes?cluster=b'));
    const nodesAtHome = names(await get('/api/k8s/nodes'));
    expect(nodesOnB.length).toBe(1);
    expect(nodesAtHome.length).toBeGreaterThan(1);
  });

  it('answers an unknown cluster with 404 and details.cluster on lists, objects, streams and writes', async () => {
    const paths: [string, string][] = [
      ['GET', '/api/k8s/pods?cluster=nope'],
      ['GET', `/api/k8s/pods/b-pod?namespace=${shared.name}&cluster=nope`],
      ['GET', '/api/k8s/pods/watch?cluster=nope'],
      ['GET', `/api/pods/b-pod/logs?namespace=${shared.name}&cluster=nope`],
      ['GET', '/api/helm/releases?cluster=nope'],
      ['POST', '/api/deployment/scale?cluster=nope'],
    ];
    for (const [method, path] of paths) {
      const response = await service.api(method, path, {
        token: service.adminToken,
        body: method === 'POST' ? { namespace: shared.name, name: 'web', replicas: 1 } : undefined,
      });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.body).toEqual({ error: expect.stringContaining('nope'), code: 'NOT_FOUND', details: { cluster: 'nope' } });
    }
    // A cluster named twice is refused, never read as the home cluster.
    const twice = await get('/api/k8s/pods?cluster=b&cluster=home');
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { cluster: 'given more than once' } } });
  });

  it('refuses pods on b to a user whose deny rule names b, and not at home or for other kinds on b (audited with the cluster)', async () => {
    const refused = await get(`/api/k8s/pods?namespace=${shared.name}&cluster=b`, noPodsOnB.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await get(`/api/pods/b-pod/logs?namespace=${shared.name}&cluster=b`, noPodsOnB.token)).status).toBe(403);
    const atHome = await get(`/api/k8s/pods?namespace=${shared.name}`, noPodsOnB.token);
    expect(atHome.status).toBe(200);
    expect(names(atHome)).toEqual(['home-pod']);
    expect((await get(`/api/k8s/configmaps?namespace=${shared.name}&cluster=b`, noPodsOnB.token)).status).toBe(200);
    const denials = (await audit(`user=${noPodsOnB.username}`)).filter((entry) => entry.decision === 'deny');
    expect(denials.length).toBeGreaterThan(0);
    expect(denials.every((entry) => entry.cluster === 'b')).toBe(true);
  });

  it('streams the live list of b: a pod created on b shows, one created at home does not', { timeout: 60_000 }, async () => {
    const response = await fetch(`${service.url}/api/k8s/pods/watch?namespace=${shared.name}&cluster=b`, {
      headers: { Authorization: `Bearer ${service.adminToken}`, Accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    const live = follow(response);
    try {
      await waitFor(() => live.events.length > 0);
      expect(live.events[0]).toMatchObject({ event: 'snapshot', data: { items: [{ name: 'b-pod', namespace: shared.name }] } });
      // The home cluster's change comes first: a stream fed from the wrong cluster would show it before b's.
      await applyYaml(clusterKubeconfig(), podYaml('late-home'), shared.name);
      await waitFor(async () => names(await get(`/api/k8s/pods?namespace=${shared.name}`)).includes('late-home'));
      await applyYaml(second.current.kubeconfig, podYaml('late-b'), shared.name);
      await waitFor(() => live.events.some((event) => event.event === 'added' && event.data.item?.name === 'late-b'));
      const named = live.events.flatMap((event) => [...(event.data.items ?? []), ...(event.data.item ? [event.data.item] : [])].map((item) => item.name));
      expect(named).not.toContain('late-home');
      expect(named).not.toContain('home-pod');
    } finally {
      await live.close();
    }
  });

  it("reads b's pod log on b (KWOK's log of that pod), 404 at home", async () => {
    const path = `/api/pods/b-pod/logs?namespace=${shared.name}`;
    await waitFor(async () => (await get(`${path}&cluster=b`)).text.includes('second line'));
    const response = await get(`${path}&cluster=b`);
    expect(response.status).toBe(200);
    expect(response.text.split('\n').filter(Boolean)).toEqual(['from b', 'second line']);
    expect((await get(path)).status).toBe(404);
  });

  it("runs exec in b's pod on b (the second cluster's KWOK runs it), audited with cluster b", async () => {
    const exec = (cluster: string) =>
      service.api('POST', `/api/pods/b-pod/exec${cluster}`, {
        token: service.adminToken,
        body: { namespace: shared.name, command: ['sh', '-c', 'echo "$TESTCLUSTER_DIR"'] },
      });
    const response = await exec('?cluster=b');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ stdout: `${second.current.directory}\n`, exitCode: 0 });
    expect((await exec('')).status).toBe(404);
    const rows = await audit('action=execute&user=admin&cluster=b');
    expect(rows.find((entry) => entry.resource === 'pod/b-pod')).toMatchObject({ cluster: 'b', decision: 'allow' });
    // The home cluster's attempt (404: no such pod there) is the home cluster's row, never a success.
    const atHome = (await audit('action=execute&user=admin&cluster=home')).filter((entry) => entry.resource === 'pod/b-pod');
    expect(atHome.map((entry) => entry.outcome)).not.toContain('success');
  });

  it('installs a helm release on b only; its list and audit row name b', { timeout: 120_000 }, async () => {
    const installed = await service.api('POST', '/api/helm/install?cluster=b', {
      token: service.adminToken,
      body: { name: 'demo', namespace: shared.name, chart: 'demo', repo: repository!.url, values: { greeting: 'hello b' } },
    });
    expect(installed.status).toBe(201);
    expect(installed.body).toMatchObject({ name: 'demo', namespace: shared.name, status: 'deployed' });
    expect(await onB('get', 'configmap', 'demo-settings', '-n', shared.name, '-o', 'jsonpath={.data.greeting}')).toBe('hello b');
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'demo-settings', '-n', shared.name])).code).not.toBe(0);
    expect(names(await get(`/api/helm/releases?namespace=${shared.name}&cluster=b`))).toEqual(['demo']);
    expect(names(await get(`/api/helm/releases?namespace=${shared.name}`))).toEqual([]);
    const rows = await audit('action=execute&user=admin&cluster=b');
    expect(rows.find((entry) => String(entry.details.command).startsWith('helm install demo'))).toMatchObject({ cluster: 'b' });
  });

  it('exports cluster_up and the call and cache series labelled by cluster', async () => {
    await waitFor(async () => /pilothouse_cache_objects\{resource="pods",[^}]*cluster="b"\} [1-9]/.test((await get('/metrics')).text));
    const text = (await get('/metrics')).text;
    expect(text).toContain('pilothouse_cluster_up{cluster="b"} 1');
    expect(text).toContain('pilothouse_cluster_up{cluster="home"} 1');
    expect(text).toMatch(/pilothouse_kube_request_duration_seconds_count\{[^}]*cluster="b"[^}]*\} [1-9]/);
    expect(text).toMatch(/pilothouse_kube_request_duration_seconds_count\{[^}]*cluster="home"[^}]*\} [1-9]/);
  });
});

describe('writes and the other cluster-facing routes on b', () => {
  const deploymentOnB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: NAMESPACE}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: busybox}]}
`;

  it('applies, scales, describes and deletes a deployment on b only', { timeout: 60_000 }, async () => {
    const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      service.api(method, path, { token: service.adminToken, body, headers });
    const applied = await call('POST', '/api/k8s/deployments/apply?cluster=b', deploymentOnB.replace('NAMESPACE', shared.name), {
      'Content-Type': 'application/yaml',
    });
    expect(applied.status).toBe(200);
    expect(applied.body.created).toBe(true);
    expect(await onB('get', 'deployment', 'web', '-n', shared.name, '-o', 'jsonpath={.spec.replicas}')).toBe('1');
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'deployment', 'web', '-n', shared.name])).code).not.toBe(0);

    expect((await call('POST', '/api/deployment/scale?cluster=b', { namespace: shared.name, name: 'web', replicas: 2 })).status).toBe(200);
    expect(await onB('get', 'deployment', 'web', '-n', shared.name, '-o', 'jsonpath={.spec.replicas}')).toBe('2');
    expect((await call('POST', '/api/deployment/scale', { namespace: shared.name, name: 'web', replicas: 3 })).status).toBe(404);

    const described = await get(`/api/k8s/deployments/web/describe?namespace=${shared.name}&cluster=b`);
    expect(described.status).toBe(200);
    expect(described.text).toMatch(/Replicas:\s+2 desired/);
    expect((await get(`/api/k8s/deployments/web/yaml?namespace=${shared.name}&cluster=b`)).text).toContain('replicas: 2');
    const history = await get(`/api/deployment/history?namespace=${shared.name}&name=web&cluster=b`);
    expect(history.status).toBe(200);

    expect((await call('DELETE', `/api/k8s/deployments/web?namespace=${shared.name}&cluster=b`)).status).toBe(200);
    await waitFor(async () => (await tryKubectl(second.current.kubeconfig, ['get', 'deployment', 'web', '-n', shared.name])).code !== 0);
    const rows = await audit('action=execute&user=admin&cluster=b');
    for (const command of ['kubectl apply', 'kubectl scale', 'kubectl delete'])
      expect(rows.find((entry) => String(entry.details.command).startsWith(command) && entry.resource === 'deployment/web')).toMatchObject({ cluster: 'b' });
  });

  it("reads b's version, resource types and the pods of b's node", async () => {
    const version = await get('/api/cluster/version?cluster=b');
    expect(version.status).toBe(200);
    expect((await get('/api/k8s?cluster=b')).status).toBe(200);
    const [node] = names(await get('/api/k8s/nodes?cluster=b'));
    const podsOnNode = await get(`/api/nodes/${node}/pods?cluster=b`);
    expect(podsOnNode.status).toBe(200);
    expect(names(podsOnNode)).toContain('b-pod');
    expect(names(podsOnNode)).not.toContain('home-pod');
  });

  it("opens the web terminal in b's pod on b through a ticket bound to b", { timeout: 30_000 }, async () => {
    const issue = async (): Promise<string> => {
      const response = await service.api('POST', '/api/pods/b-pod/terminal/ticket?cluster=b', { token: service.adminToken, body: { namespace: shared.name } });
      expect(response.status).toBe(201);
      return response.body.ticket as string;
    };
    const base = `${service.url.replace('http', 'ws')}/api/pods/b-pod/terminal?namespace=${shared.name}&shell=/bin/sh`;
    // A ticket of b does not open the home cluster's terminal (403 ticket_mismatch, like a ticket of another pod).
    expect(await refusedStatus(new WebSocket(`${base}&ticket=${await issue()}`, ['pilothouse.terminal.v1']))).toBe(403);
    const frames = await terminalSession(new WebSocket(`${base}&cluster=b&ticket=${await issue()}`, ['pilothouse.terminal.v1']), [
      { after: /[#$] $/, input: 'echo "dir=$TESTCLUSTER_DIR"\n' },
      { after: /dir=\//, input: 'exit\n' },
    ]);
    const output = frames
      .filter((frame) => frame.type === 'output')
      .map((frame) => frame.data)
      .join('');
    expect(output).toContain(`dir=${second.current.directory}`);
    expect(frames.at(-1)).toEqual({ type: 'exit', code: 0 });
  });
});

describe('impersonation per cluster', () => {
  let impersonating: TestService;
  /** Reads pods and configmaps of the shared namespace, or configmaps only. */
  const rbacYaml = (account: string, resources: string): string => `apiVersion: v1
kind: ServiceAccount
metadata: {name: ${account}, namespace: ${shared.name}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: ${account}, namespace: ${shared.name}}
rules: [{apiGroups: [""], resources: [${resources}], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: ${account}, namespace: ${shared.name}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ${account}}
subjects: [{kind: ServiceAccount, name: ${account}, namespace: ${shared.name}}]
`;
  const identity = (account: string) => `system:serviceaccount:${shared.name}:${account}`;

  beforeAll(async () => {
    // `reader` may read pods on both clusters; b's own mapping names `b-reader`, which may read configmaps only.
    await applyYaml(clusterKubeconfig(), rbacYaml('reader', 'pods, configmaps'));
    await applyYaml(second.current.kubeconfig, rbacYaml('reader', 'pods, configmaps'));
    await applyYaml(second.current.kubeconfig, rbacYaml('b-reader', 'configmaps'));
    impersonating = await startTestService({
      config: {
        authorization: { impersonation: { enabled: true, mappings: { viewer: identity('reader') } } },
        clusters: [{ name: 'b', kubeconfig: second.current.kubeconfig, impersonation: { mappings: { viewer: identity('b-reader') } } }],
      },
    });
  });

  afterAll(async () => {
    await impersonating?.close();
  });

  it("acts on b as b's mapping: b's RBAC refuses its pods there, while the home mapping reads them at home", async () => {
    const { token } = await impersonating.createUser('viewer');
    const call = (path: string) => impersonating.api('GET', path, { token });
    const podOnB = await call(`/api/k8s/pods/b-pod?namespace=${shared.name}&cluster=b`);
    expect(podOnB.status).toBe(403);
    expect(podOnB.body.code).toBe('FORBIDDEN');
    expect(podOnB.body.error).toContain(identity('b-reader'));
    expect((await call(`/api/k8s/pods?namespace=${shared.name}&cluster=b`)).status).toBe(403);
    const configMapsOnB = await call(`/api/k8s/configmaps?namespace=${shared.name}&cluster=b`);
    expect(configMapsOnB.status).toBe(200);
    expect(names(configMapsOnB)).toContain('kube-root-ca.crt');
    const podsAtHome = await call(`/api/k8s/pods?namespace=${shared.name}`);
    expect(podsAtHome.status).toBe(200);
    expect(names(podsAtHome)).toContain('home-pod');
    expect((await call(`/api/k8s/pods/home-pod?namespace=${shared.name}`)).status).toBe(200);
  });
});

/** The pid of the second cluster's kube-apiserver (`testcluster component kube-apiserver ...` naming the cluster's folder). */
function apiServerPid(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (command.includes(second.current.directory) && command.split('\0').slice(0, 3).includes('kube-apiserver')) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error("the second cluster's kube-apiserver is not running");
}

describe('a slow cluster (its API server frozen)', () => {
  it('times out its own calls and is marked down, while the home cluster answers; it is up again once it answers', { timeout: 90_000 }, async () => {
    const pid = apiServerPid();
    process.kill(pid, 'SIGSTOP');
    try {
      // A call to b's API server (a log is never cached), made before b's probe knows, fails on its own timeout
      // (cluster.timeout) instead of hanging.
      const pending = get(`/api/pods/b-pod/logs?namespace=${shared.name}&cluster=b`);
      const atHome = await get(`/api/k8s/pods/home-pod?namespace=${shared.name}`);
      expect(atHome.status).toBe(200);
      const onFrozen = await pending;
      expect([500, 503]).toContain(onFrozen.status);
      expect(['K8S_ERROR', 'UNAVAILABLE']).toContain(onFrozen.body.code);
      await waitFor(async () => (await clusters()).find((item) => item.name === 'b')?.reachable === false, 30_000);
      expect((await clusters()).find((item) => item.name === 'b')!.error).toBe(`no answer from ${new URL(second.current.server).host} in time`);
      expect((await get(`/api/k8s/pods?namespace=${shared.name}&cluster=b`)).body).toMatchObject({ code: 'UNAVAILABLE', details: { cluster: 'b' } });
      expect((await get(`/api/k8s/pods?namespace=${shared.name}`)).status).toBe(200);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await waitFor(async () => (await clusters()).find((item) => item.name === 'b')?.reachable === true, 30_000);
    expect(names(await get(`/api/k8s/pods?namespace=${shared.name}&cluster=b`))).toContain('b-pod');
    expect((await get('/metrics')).text).toContain('pilothouse_cluster_up{cluster="b"} 1');
  });
});

// Last: it kills the second cluster.
describe('a cluster killed mid-test', () => {
  it('is marked down within 30 s; its requests answer 503 at once while the home cluster still answers', { timeout: 90_000 }, async () => {
    await second.current.kill();
    await waitFor(async () => (await clusters()).find((item) => item.name === 'b')?.reachable === false, 30_000);
    const down = (await clusters()).find((item) => item.name === 'b')!;
    expect(down).toMatchObject({ name: 'b', reachable: false, error: expect.any(String) });
    expect(down.version).toBeUndefined();
    expect(down.error).not.toMatch(/token|BEGIN|certificate-authority/i);
    // Why, in words an operator can act on: b's server did not take the connection (it did not "answer" anything).
    expect(down.error).toBe(`cannot connect to ${new URL(second.current.server).host} (ECONNREFUSED)`);
    expect((await clusters()).find((item) => item.name === 'home')).toMatchObject({ reachable: true });

    // b's requests fail fast with the contract's 503 (no call is made to a cluster known to be down).
    for (const path of [
      `/api/k8s/pods?namespace=${shared.name}&cluster=b`,
      `/api/pods/b-pod/logs?namespace=${shared.name}&cluster=b`,
      '/api/helm/releases?cluster=b',
    ]) {
      const response = await get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 503 });
      expect(response.body).toMatchObject({ code: 'UNAVAILABLE', details: { cluster: 'b' } });
    }
    const stream = await fetch(`${service.url}/api/k8s/pods/watch?cluster=b`, { headers: { Authorization: `Bearer ${service.adminToken}` } });
    expect(stream.status).toBe(503);
    await stream.body?.cancel();

    // The home cluster answers: lists, objects, writes.
    const atHome = await get(`/api/k8s/pods?namespace=${shared.name}`);
    expect(atHome.status).toBe(200);
    expect(names(atHome)).toContain('home-pod');
    expect((await get(`/api/pods/home-pod/logs?namespace=${shared.name}`)).text).toContain('from home');
    expect((await get('/metrics')).text).toContain('pilothouse_cluster_up{cluster="b"} 0');
  });
});
