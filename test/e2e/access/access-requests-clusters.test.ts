import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { deploymentYaml } from '../../helpers/manifests.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Access requests and audit across clusters (ADR 0035): the one real test cluster is registered twice, as
// the home cluster (`home`) and as cluster `b` (same API server, its own scope), so a grant that leaked
// from one cluster's policy to the other's would show as a write that succeeds.
const shop = useNamespace('jit-clusters');
let service: TestService;
let user: { username: string; token: string };

interface AuditItem {
  action: string;
  resource: string;
  decision: string;
  cluster?: string;
  details: Record<string, unknown>;
}

const scale = (replicas: number, cluster?: string) =>
  service.api('POST', `/api/deployment/scale${cluster ? `?cluster=${cluster}` : ''}`, {
    token: user.token,
    body: { namespace: shop.name, name: 'web', replicas },
  });
const replicas = () => runKubectl(clusterKubeconfig(), ['get', 'deployment', 'web', '-n', shop.name, '-o', 'jsonpath={.spec.replicas}']);
const approve = (id: string) => service.api('POST', `/api/access-requests/${id}/approve`, { token: service.adminToken, body: {} });
const audit = async (search: string): Promise<AuditItem[]> =>
  (await service.api<{ items: AuditItem[] }>('GET', `/api/audit?limit=1000&${search}`, { token: service.adminToken })).body.items;

/** An AccessRequest as `kubectl apply` writes it (no `spec.cluster` unless `cluster` is given). */
const accessRequestYaml = (name: string, cluster?: string) => `apiVersion: pilothouse.dev/v1alpha1
kind: AccessRequest
metadata: {name: ${name}}
spec: {requester: ${user.username}, permission: execute_write, namespaces: [${shop.name}], resources: [deployments], ttl: 30m${cluster ? `, cluster: ${cluster}` : ''}}`;

async function applyPending(name: string, cluster?: string): Promise<void> {
  await applyYaml(clusterKubeconfig(), accessRequestYaml(name, cluster), service.namespace);
  await waitFor(async () => (await service.api('GET', `/api/access-requests/${name}`, { token: user.token })).body.phase === 'Pending');
}

beforeAll(async () => {
  service = await startTestService({ config: { clusters: [{ name: 'b', kubeconfig: clusterKubeconfig() }] } });
  user = await service.createUser('user');
  await applyYaml(clusterKubeconfig(), deploymentYaml('web'), shop.name);
});

afterAll(async () => {
  await service?.close();
});

describe('access requests across clusters', () => {
  it('a grant approved for cluster b does not open the home cluster; one without spec.cluster does', async () => {
    await applyPending('for-b', 'b');
    const listed = await service.api('GET', '/api/access-requests/for-b', { token: user.token });
    expect(listed.body).toMatchObject({ id: 'for-b', cluster: 'b', phase: 'Pending' });
    expect((await approve('for-b')).body).toMatchObject({ phase: 'Approved', cluster: 'b' });

    const refused = await scale(2);
    expect(refused.status).toBe(403);
    expect(refused.body.details.reason).toBe('approval_required');
    expect(await replicas()).toBe('1');
    // On cluster b (the same API server behind its own scope) the grant opens the write.
    expect((await scale(2, 'b')).status).toBe(200);
    expect(await replicas()).toBe('2');
    const onB = await audit(`action=execute&user=${user.username}&cluster=b`);
    expect(onB.find((entry) => entry.decision === 'allow' && String(entry.details.command).includes('--replicas=2'))).toMatchObject({ cluster: 'b' });
    // The approval's audit row names the request's cluster.
    const reviews = await audit('action=access_request&cluster=b&user=admin');
    expect(reviews.find((entry) => entry.resource === 'accessrequest/for-b')).toMatchObject({ cluster: 'b', details: { event: 'approved' } });

    // The same grant applied with kubectl and no spec.cluster is the home cluster's.
    await applyPending('for-home');
    expect((await service.api('GET', '/api/access-requests/for-home', { token: user.token })).body.cluster).toBe('home');
    expect((await approve('for-home')).status).toBe(200);
    const scaled = await scale(3);
    expect(scaled.status).toBe(200);
    expect(await replicas()).toBe('3');

    // The write's audit row carries the home cluster and is found by ?cluster=home, not by ?cluster=b.
    const isScale = (entry: AuditItem) => entry.action === 'execute' && entry.decision === 'allow' && String(entry.details.command).includes('--replicas=3');
    const home = await audit(`action=execute&user=${user.username}&cluster=home`);
    expect(home.find(isScale)).toMatchObject({ cluster: 'home' });
    expect((await audit(`action=execute&user=${user.username}&cluster=b`)).find(isScale)).toBeUndefined();
    // A sign-in touches no cluster: its row has no `cluster`.
    const logins = await audit(`action=login&user=${user.username}`);
    expect(logins.length).toBeGreaterThan(0);
    expect(logins.every((entry) => entry.cluster === undefined)).toBe(true);
  });

  it('creating takes ?cluster= (404 for an unknown name), the list shows and filters by cluster', async () => {
    const body = { permission: 'execute_write', namespaces: [shop.name], resources: ['deploy'], ttl: '10m' };
    const unknown = await service.api('POST', '/api/access-requests?cluster=nowhere', { token: user.token, body });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', details: { cluster: 'nowhere' } });

    const onB = await service.api('POST', '/api/access-requests?cluster=b', { token: user.token, body });
    expect(onB.status).toBe(201);
    expect(onB.body).toMatchObject({ cluster: 'b', resources: ['deployments'], phase: 'Pending' });
    const stored = ['get', 'accessrequest', onB.body.id, '-n', service.namespace, '-o', 'jsonpath={.spec.cluster}'];
    expect(await runKubectl(clusterKubeconfig(), stored)).toBe('b');
    const onHome = await service.api('POST', '/api/access-requests', { token: user.token, body });
    expect(onHome.body.cluster).toBe('home');

    const ids = async (search: string): Promise<string[]> =>
      (await service.api('GET', `/api/access-requests${search}`, { token: user.token })).body.items.map((item: { id: string }) => item.id);
    const [all, onlyB, onlyHome] = [await ids(''), await ids('?cluster=b'), await ids('?cluster=home&phase=Pending')];
    expect(all).toEqual(expect.arrayContaining([onB.body.id, onHome.body.id]));
    expect(onlyB).toContain(onB.body.id);
    expect(onlyB).not.toContain(onHome.body.id);
    expect(onlyHome).toEqual([onHome.body.id]);
    expect((await service.api('GET', '/api/access-requests?cluster=Not_A_Name', { token: user.token })).status).toBe(400);

    const requested = await audit(`action=access_request&user=${user.username}&cluster=b`);
    expect(requested.find((entry) => entry.resource === `accessrequest/${onB.body.id}`)).toMatchObject({ cluster: 'b', details: { event: 'requested' } });
  });
});
