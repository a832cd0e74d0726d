import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('deploy');
let service: TestService;

function deploymentYaml(image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: ${image}}`;
}

const kubectl = (...args: string[]) => runKubectl(clusterKubeconfig(), [...args, '-n', namespace.name]);
const post = (action: string, body: unknown) => service.api('POST', `/api/deployment/${action}`, { body, token: service.adminToken });

async function revision(): Promise<string> {
  return kubectl('get', 'deployment', 'web', '-o', `jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}`);
}

beforeAll(async () => {
  service = await startTestService();
  await applyYaml(clusterKubeconfig(), deploymentYaml('nginx:1.25'), namespace.name);
  await waitFor(async () => (await revision()) === '1');
  await applyYaml(clusterKubeconfig(), deploymentYaml('nginx:1.26'), namespace.name);
  await waitFor(async () => (await revision()) === '2');
});

afterAll(async () => {
  await service?.close();
});

describe('deployment actions', () => {
  it('scales and reports before/after', async () => {
    const response = await post('scale', { namespace: namespace.name, name: 'web', replicas: 3 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ name: 'web', namespace: namespace.name, before: { replicas: 1 }, after: { replicas: 3 } });
    expect(await kubectl('get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}')).toBe('3');
  });

  it('validates input before any cluster call', async () => {
    expect((await post('scale', { namespace: namespace.name, name: 'web', replicas: -1 })).status).toBe(400);
    expect((await post('scale', { namespace: namespace.name, name: 'web', replicas: '2' })).status).toBe(400);
    expect((await post('scale', { namespace: namespace.name, replicas: 2 })).status).toBe(400);
    expect((await post('rollback', { namespace: namespace.name, name: 'web', revision: -3 })).status).toBe(400);
  });

  it('404s for unknown deployments and wrong namespaces', async () => {
    expect((await post('scale', { namespace: namespace.name, name: 'ghost', replicas: 1 })).status).toBe(404);
    expect((await post('restart', { namespace: 'default', name: 'web' })).status).toBe(404);
  });

  it('restarts through the restartedAt annotation', async () => {
    const response = await post('restart', { namespace: namespace.name, name: 'web' });
    expect(response.body.before).toEqual({ restartedAt: null });
    const annotation = await kubectl('get', 'deployment', 'web', '-o', `jsonpath={.spec.template.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}`);
    expect(annotation).toBe(response.body.after.restartedAt);
    await waitFor(async () => (await revision()) === '3');
  });

  it('lists the revision history', async () => {
    const response = await service.api('GET', `/api/deployment/history?namespace=${namespace.name}&name=web`, { token: service.adminToken });
    expect(response.status).toBe(200);
    const items = response.body.items as { revision: number; images: string[]; current: boolean }[];
    expect(items.map((item) => item.revision)).toEqual([1, 2, 3]);
    expect(items[0]?.images).toEqual(['nginx:1.25']);
    expect(items.filter((item) => item.current).map((item) => item.revision)).toEqual([3]);
    expect((await service.api('GET', `/api/deployment/history?namespace=${namespace.name}&name=ghost`, { token: service.adminToken })).status).toBe(404);
  });

  it('rolls back to a revision, to the previous one, and 404s for an unknown revision', async () => {
    const unknown = await post('rollback', { namespace: namespace.name, name: 'web', revision: 42 });
    expect(unknown.status).toBe(404);
    const toFirst = await post('rollback', { namespace: namespace.name, name: 'web', revision: 1 });
    expect(toFirst.status).toBe(200);
    expect(toFirst.body.after).toEqual({ revision: 1, images: ['nginx:1.25'] });
    await waitFor(async () => (await kubectl('get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}')) === 'nginx:1.25');
    await waitFor(async () => (await revision()) === '4');
    const previous = await post('rollback', { namespace: namespace.name, name: 'web' });
    expect(previous.body.before.revision).toBe(4);
    expect(previous.body.after.revision).toBe(3);
  });

  it('pauses and resumes', async () => {
    const paused = await post('pause', { namespace: namespace.name, name: 'web' });
    expect(paused.body).toEqual({ name: 'web', namespace: namespace.name, before: { paused: false }, after: { paused: true } });
    expect(await kubectl('get', 'deployment', 'web', '-o', 'jsonpath={.spec.paused}')).toBe('true');
    expect((await post('rollback', { namespace: namespace.name, name: 'web' })).status).toBe(400);
    const resumed = await post('resume', { namespace: namespace.name, name: 'web' });
    expect(resumed.body.after).toEqual({ paused: false });
  });

  it('audits each action with the kubectl line', async () => {
    const commands = service.deps.audit.query({ action: 'execute', limit: 100, offset: 0 }).items.map((entry) => entry.details.command);
    expect(commands).toContain(`kubectl scale deployment/web --replicas=3 -n ${namespace.name}`);
    expect(commands).toContain(`kubectl rollout undo deployment/web --to-revision=1 -n ${namespace.name}`);
    expect(commands).toContain(`kubectl rollout pause deployment/web -n ${namespace.name}`);
  });
});
