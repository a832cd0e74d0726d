// The chart on a real node (make test-node): charts/pilothouse installed with its defaults plus the
// real node's selector and toleration, run by a real kubelet + containerd from the image that
// `make image` built, reached through its Service's ClusterIP (kube-proxy) from this host.
// The tests run in order and share the release; they need `make cluster-node` (NODE_KUBECONFIG).
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { uniqueName, waitFor } from '../helpers/cluster.js';
import { runKubectl, tryKubectl } from '../helpers/kubectl.js';
import { rootDirectory, toolPath } from '../helpers/paths.js';

const kubeconfig = process.env.NODE_KUBECONFIG ?? join(rootDirectory, '.cluster', 'kubeconfig');
const namespace = uniqueName('node-chart');
const release = 'ph';
const fullname = `${release}-pilothouse`;
const chart = join(rootDirectory, 'charts', 'pilothouse');
const onRealNode = [
  '--set-string',
  'nodeSelector.node\\.pilothouse\\.dev/real=true',
  '--set',
  'tolerations[0].key=node.pilothouse.dev/real,tolerations[0].operator=Exists,tolerations[0].effect=NoSchedule',
];

interface HttpAnswer {
  status: number;
  body: string;
}

function helm(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(toolPath('helm'), ['--kubeconfig', kubeconfig, ...args], { maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`helm ${args.join(' ')} failed: ${stderr}`));
      else resolve(stdout);
    });
  });
}

async function kubectlJson<T>(args: string[]): Promise<T> {
  return JSON.parse(await runKubectl(kubeconfig, [...args, '-o', 'json'])) as T;
}

interface PodList {
  items: Array<{
    metadata: { name: string };
    spec: {
      nodeName?: string;
      securityContext?: { runAsUser?: number };
      containers: Array<{ readinessProbe?: unknown; livenessProbe?: unknown; startupProbe?: unknown }>;
    };
    status: {
      podIP?: string;
      conditions?: Array<{ type: string; status: string }>;
      containerStatuses?: Array<{ ready: boolean; restartCount: number; started?: boolean }>;
    };
  }>;
}

function podsOfRelease(): Promise<PodList> {
  return kubectlJson<PodList>(['get', 'pods', '-n', namespace, '-l', `app.kubernetes.io/instance=${release}`]);
}

async function readyPod(): Promise<PodList['items'][number]> {
  const pods = (await podsOfRelease()).items.filter((pod) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
  expect(pods).toHaveLength(1);
  return pods[0]!;
}

/** An HTTP call to the Service's ClusterIP from this host, with the Service's DNS name as Host (the chart's allowlist). */
async function throughService(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<HttpAnswer> {
  const clusterIp = (await runKubectl(kubeconfig, ['get', 'service', fullname, '-n', namespace, '-o', 'jsonpath={.spec.clusterIP}'])).trim();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { Host: `${fullname}.${namespace}.svc` };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (payload) headers['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const call = request({ host: clusterIp, port: 80, method, path, headers, timeout: 10_000 }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on('timeout', () => call.destroy(new Error(`${method} ${path}: timeout`)));
    call.on('error', reject);
    call.end(payload);
  });
}

async function adminPassword(): Promise<string> {
  const encoded = await runKubectl(kubeconfig, ['get', 'secret', fullname, '-n', namespace, '-o', 'jsonpath={.data.admin-password}']);
  return Buffer.from(encoded, 'base64').toString();
}

async function login(): Promise<string> {
  const answer = await throughService('POST', '/api/auth/login', { body: { password: await adminPassword() } });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { token: string }).token;
}

interface AuditPage {
  items: Array<{ id?: unknown; timestamp?: string; action: string; user?: string }>;
  total: number;
}

async function loginAudit(token: string): Promise<AuditPage> {
  const answer = await throughService('GET', '/api/audit?action=login&limit=100', { token });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as AuditPage;
}

describe('the chart on the real node', () => {
  beforeAll(async () => {
    const node = await tryKubectl(kubeconfig, ['get', 'node', '-l', 'node.pilothouse.dev/real=true', '-o', 'name']);
    if (node.code !== 0 || node.stdout.trim() === '') throw new Error('no real node in the cluster: run make cluster-node (make test-node does)');
  });

  afterAll(async () => {
    await helm(['uninstall', release, '-n', namespace, '--wait']).catch(() => undefined);
    await tryKubectl(kubeconfig, ['delete', 'namespace', namespace, '--wait=false']);
  });

  test('helm install with the defaults gives a pod on the real node, Ready by its own probes, with its volume bound', async () => {
    await helm(['install', release, chart, '-n', namespace, '--create-namespace', ...onRealNode, '--wait', '--timeout', '5m']);
    const pod = await readyPod();
    expect(pod.spec.nodeName).toBe('real-node');
    // A pod IP from the node's bridge CNI (KWOK pods get 10.244.x.x).
    expect(pod.status.podIP).toMatch(/^10\.88\./);
    const container = pod.spec.containers[0]!;
    expect(container.readinessProbe).toBeDefined();
    expect(container.livenessProbe).toBeDefined();
    expect(pod.status.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 0 });
    const claims = await kubectlJson<{ items: Array<{ status: { phase: string }; spec: { storageClassName?: string } }> }>([
      'get',
      'pvc',
      '-n',
      namespace,
      '-l',
      `app.kubernetes.io/instance=${release}`,
    ]);
    expect(claims.items.map((claim) => claim.status.phase)).toEqual(['Bound']);
    expect(claims.items[0]!.spec.storageClassName).toBe('local-path');
  });

  test('kubectl exec runs inside the container as its non-root user', async () => {
    const pod = await readyPod();
    const runAsUser = pod.spec.securityContext?.runAsUser;
    expect(runAsUser).toBeGreaterThan(0);
    const out = await runKubectl(kubeconfig, [
      'exec',
      '-n',
      namespace,
      pod.metadata.name,
      '--',
      'node',
      '-e',
      'console.log(JSON.stringify({ uid: process.getuid(), host: require("os").hostname() }))',
    ]);
    // KWOK would run the command on this host as root; a real container has the pod's name and user.
    expect(JSON.parse(out)).toEqual({ uid: runAsUser, host: pod.metadata.name });
  });

  test('through the Service: health, login with the chart admin Secret, a cluster read, /metrics', async () => {
    const health = await throughService('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ kubernetes: 'connected' });
    const token = await login();
    const pods = await throughService('GET', `/api/k8s/pods?namespace=${namespace}`, { token });
    expect(pods.status).toBe(200);
    const names = (JSON.parse(pods.body) as { items: Array<{ name?: string; metadata?: { name: string } }> }).items.map(
      (item) => item.name ?? item.metadata?.name,
    );
    expect(names).toContain((await readyPod()).metadata.name);
    const metrics = await throughService('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^# (HELP|TYPE) /m);
    expect(metrics.body).toContain('process_cpu');
  });

  test('helm upgrade keeps the audit rows (and the admin password) across the new pod', async () => {
    const before = await loginAudit(await login());
    expect(before.total).toBeGreaterThanOrEqual(2);
    const oldPod = (await readyPod()).metadata.name;
    await helm(['upgrade', release, chart, '-n', namespace, '--reuse-values', '--set-string', 'podAnnotations.upgraded=yes', '--wait', '--timeout', '5m']);
    await waitFor(
      async () => {
        const pods = (await podsOfRelease()).items;
        return pods.length === 1 && pods[0]!.metadata.name !== oldPod && pods[0]!.status.containerStatuses?.[0]?.ready === true;
      },
      180_000,
      1_000,
    );
    const after = await loginAudit(await login());
    expect(after.total).toBe(before.total + 1);
    for (const row of before.items) expect(after.items).toContainEqual(row);
  });

  test('helm uninstall leaves nothing of the release but the CRDs, and gives the volume back', async () => {
    const crdsBefore = await runKubectl(kubeconfig, ['get', 'crd', '-o', 'name']);
    await helm(['uninstall', release, '-n', namespace, '--wait', '--timeout', '3m']);
    const selector = `app.kubernetes.io/instance=${release}`;
    const kinds = 'all,configmaps,secrets,pvc,serviceaccounts,roles,rolebindings,poddisruptionbudgets,networkpolicies,ingresses';
    let left = '';
    await waitFor(
      async () => {
        left = (await runKubectl(kubeconfig, ['get', kinds, '-n', namespace, '-l', selector, '-o', 'name'])).trim();
        return left === '';
      },
      120_000,
      1_000,
    );
    // persistence.keepOnUninstall is off by default: the store's claim goes with the release.
    expect(left).toBe('');
    expect(await runKubectl(kubeconfig, ['get', 'clusterroles,clusterrolebindings', '-l', selector, '-o', 'name'])).toBe('');
    // Helm keeps CRDs (crds/ directory): they stay, and so does every other one.
    const crdsAfter = await runKubectl(kubeconfig, ['get', 'crd', '-o', 'name']);
    expect(crdsAfter).toBe(crdsBefore);
    expect(crdsAfter).toMatch(/accessrequests\./);
    // The released volume is given back (the node's provisioner deletes it).
    await waitFor(
      async () => !(await runKubectl(kubeconfig, ['get', 'pv', '-o', 'jsonpath={.items[*].spec.claimRef.namespace}'])).includes(namespace),
      60_000,
      1_000,
    );
  });
});
