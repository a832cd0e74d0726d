import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('nodes');
let service: TestService;
const nodeA = uniqueName('drain-a');
const nodeB = uniqueName('drain-b');
const taint = 'pilothouse.dev/drain-test';

/** A KWOK node of our own, tainted so no other test's pods land on it. */
async function createNode(name: string): Promise<void> {
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  annotations: {kwok.x-k8s.io/node: fake}
  labels: {kubernetes.io/hostname: ${name}, type: kwok}
spec:
  taints: [{key: ${taint}, value: "true", effect: NoSchedule}]`,
  );
  const resources = { cpu: '8', memory: '16Gi', pods: '110' };
  await runKubectl(clusterKubeconfig(), [
    'patch',
    'node',
    name,
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify({ status: { capacity: resources, allocatable: resources } }),
  ]);
}

function deploymentYaml(name: string, node: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      nodeName: ${node}
      containers: [{name: main, image: busybox}]`;
}

const onNodeA = `apiVersion: v1
kind: Pod
metadata: {name: loose}
spec:
  nodeName: ${nodeA}
  containers: [{name: main, image: busybox}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {kubernetes.io/hostname: ${nodeA}}
      tolerations: [{key: ${taint}, operator: Exists}]
      containers: [{name: main, image: busybox}]
---
${deploymentYaml('managed', nodeA, 2)}`;

const onNodeB = `${deploymentYaml('guarded', nodeB, 1)}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: guarded}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: guarded}}`;

async function podCount(node: string): Promise<number> {
  const output = await runKubectl(clusterKubeconfig(), [
    'get',
    'pods',
    '-n',
    namespace.name,
    '--field-selector',
    `spec.nodeName=${node},status.phase=Running`,
    '-o',
    'name',
  ]);
  return output.split('\n').filter(Boolean).length;
}

interface DrainEvent {
  event: string;

  data: Record<string, any>;
}

/** Starts a drain and reads its SSE progress to the result. */
async function drain(body: Record<string, unknown>): Promise<DrainEvent[]> {
  const started = await service.api('POST', '/api/node/drain', { body, token: service.adminToken });
  expect(started.status).toBe(202);
  const response = await fetch(`${service.url}/api/node/drain/${started.body.id}`, { headers: { Authorization: `Bearer ${service.adminToken}` } });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event:'))
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: eventLine!.slice(7), data: JSON.parse(dataLine!.slice(6)) };
    });
}

beforeAll(async () => {
  service = await startTestService();
  await createNode(nodeA);
  await createNode(nodeB);
  await applyYaml(clusterKubeconfig(), onNodeA, namespace.name);
  await applyYaml(clusterKubeconfig(), onNodeB, namespace.name);
  await waitFor(async () => (await podCount(nodeA)) === 4);
  await waitFor(async () => (await podCount(nodeB)) === 1);
  await waitFor(
    async () => (await runKubectl(clusterKubeconfig(), ['get', 'pdb', 'guarded', '-n', namespace.name, '-o', 'jsonpath={.status.currentHealthy}'])) === '1',
  );
});

afterAll(async () => {
  await service?.close();
  await tryKubectl(clusterKubeconfig(), ['delete', 'node', nodeA, nodeB, '--wait=false']);
});

describe('nodes', () => {
  it('lists the pods on a node in the pod list shape', async () => {
    await waitFor(async () => (await service.api('GET', `/api/nodes/${nodeA}/pods`, { token: service.adminToken })).body.total === 4);
    const response = await service.api('GET', `/api/nodes/${nodeA}/pods`, { token: service.adminToken });
    const loose = response.body.items.find((item: { name: string }) => item.name === 'loose');
    expect(loose).toMatchObject({ name: 'loose', namespace: namespace.name, status: 'Running', ready: '1/1', restarts: 0, node: nodeA });
    expect((await service.api('GET', '/api/nodes/ghost-node/pods', { token: service.adminToken })).status).toBe(404);
  });

  it('cordons and uncordons', async () => {
    const cordoned = await service.api('POST', '/api/node/cordon', { body: { name: nodeB }, token: service.adminToken });
    expect(cordoned.body).toEqual({ name: nodeB, before: { unschedulable: false }, after: { unschedulable: true } });
    expect(await runKubectl(clusterKubeconfig(), ['get', 'node', nodeB, '-o', 'jsonpath={.spec.unschedulable}'])).toBe('true');
    const uncordoned = await service.api('POST', '/api/node/uncordon', { body: { name: nodeB }, token: service.adminToken });
    expect(uncordoned.body.after).toEqual({ unschedulable: false });
    expect((await service.api('POST', '/api/node/cordon', { body: { name: 'ghost-node' }, token: service.adminToken })).status).toBe(404);
    expect((await service.api('POST', '/api/node/cordon', { body: {}, token: service.adminToken })).status).toBe(400);
  });

  it('refuses unmanaged and DaemonSet pods without the flags, evicting nothing', async () => {
    const events = await drain({ name: nodeA, timeoutSeconds: 30 });
    const result = events.at(-1)!;
    expect(result.event).toBe('result');
    expect(result.data.status).toBe('refused');
    const refused = result.data.refused.map((pod: { name: string; reason: string }) => pod.reason);
    expect(refused).toContain('not managed by a controller (use force)');
    expect(refused).toContain('DaemonSet-managed pod (use ignoreDaemonSets)');
    expect(await podCount(nodeA)).toBe(4);
    expect(await runKubectl(clusterKubeconfig(), ['get', 'node', nodeA, '-o', 'jsonpath={.spec.unschedulable}'])).toBe('true');
  });

  it('drains with force and ignoreDaemonSets, one event per pod', async () => {
    const events = await drain({ name: nodeA, force: true, ignoreDaemonSets: true, gracePeriodSeconds: 0, timeoutSeconds: 60 });
    const pods = events.filter((event) => event.event === 'pod');
    expect(pods.filter((event) => event.data.status === 'evicted')).toHaveLength(3);
    expect(pods.filter((event) => event.data.status === 'skipped').map((event) => event.data.name)[0]).toMatch(/^agent-/);
    expect(events.at(-1)).toMatchObject({ event: 'result', data: { status: 'completed', evicted: 3 } });
    expect(await tryKubectl(clusterKubeconfig(), ['get', 'pod', 'loose', '-n', namespace.name])).toMatchObject({ code: 1 });
  });

  it('reports a drain blocked by a PodDisruptionBudget', async () => {
    const events = await drain({ name: nodeB, timeoutSeconds: 3 });
    const failed = events.filter((event) => event.event === 'pod' && event.data.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data.reason).toContain('PodDisruptionBudget');
    expect(events.at(-1)).toMatchObject({ event: 'result', data: { status: 'failed', evicted: 0 } });
    expect(await podCount(nodeB)).toBe(1);
  });

  it('validates a drain request and 404s for unknown nodes and drains', async () => {
    expect((await service.api('POST', '/api/node/drain', { body: { name: nodeB, force: 'yes' }, token: service.adminToken })).status).toBe(400);
    expect((await service.api('POST', '/api/node/drain', { body: { name: 'ghost-node' }, token: service.adminToken })).status).toBe(404);
    expect((await service.api('GET', '/api/node/drain/does-not-exist', { token: service.adminToken })).status).toBe(404);
  });
});
