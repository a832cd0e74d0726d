import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { serveDemoChartRepository, type ChartRepository } from '../../helpers/chart-repository.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Every path that is not an AI tool asks the one policy (src/rbac/policy.ts): resource routes,
 * pod metrics, pods on a node, helm routes. A deny role, a grant and Pilothouse's own namespace
 * give the same answers on each. (MCP server mode makes no cluster request of its own: its tools
 * run kubectl through the policy proxy.)
 */
const dev = useNamespace('pp-dev');
const prod = useNamespace('pp-prod');
const node = 'kwok-node-0';
let service: TestService;
let charts: ChartRepository;
/** role user, denied Secrets and Pods in prod. */
let denied: { username: string; token: string };
/** role user with an approved grant for direct writes in dev and in Pilothouse's own namespace. */
let granted: { username: string; token: string };

const podYaml = (name: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  annotations: {kwok.x-k8s.io/usage-cpu: "100m", kwok.x-k8s.io/usage-memory: "32Mi"}
spec:
  nodeName: ${node}
  containers: [{name: main, image: busybox}]`;

const get = (path: string, token: string) => service.api('GET', path, { token });
const names = (items: { namespace: string; name: string }[]) => items.map((item) => `${item.namespace}/${item.name}`);
const install = (token: string, namespace: string, name = 'demo') =>
  service.api('POST', '/api/helm/install', { token, body: { name, namespace, chart: 'demo', repo: charts.url, values: {} } });

async function grant(user: { username: string; token: string }, namespaces: string[]): Promise<void> {
  const asked = await service.api('POST', '/api/access-requests', {
    token: user.token,
    body: { permission: 'execute_write', namespaces, reason: 'policy paths', ttl: '1h' },
  });
  expect(asked.status).toBe(201);
  const approved = await service.api('POST', `/api/access-requests/${asked.body.id}/approve`, { token: service.adminToken, body: {} });
  expect(approved.body.phase).toBe('Approved');
}

async function denials(username: string): Promise<string[]> {
  const response = await service.api('GET', `/api/audit?user=${username}&action=execute&limit=100`, { token: service.adminToken });
  return response.body.items
    .filter((entry: { decision: string }) => entry.decision === 'deny')
    .map((entry: { details: { reason: string } }) => entry.details.reason);
}

beforeAll(async () => {
  charts = await serveDemoChartRepository();
  service = await startTestService({
    config: {
      // The fixture repository serves plain http on loopback.
      helm: { allow_http: true, allow_private_urls: true },
      authorization: {
        roles: [
          { name: 'no-prod-secrets', resources: ['secret'], namespaces: [prod.name], verbs: ['*'], effect: 'deny' },
          { name: 'no-prod-pods', resources: ['po'], namespaces: [prod.name], verbs: ['*'], effect: 'deny' },
          { name: 'no-prod', resources: ['*'], namespaces: [prod.name], verbs: ['*'], effect: 'deny' },
          { name: 'no-dev-configmaps', resources: ['ConfigMap'], namespaces: [dev.name], verbs: ['create'], effect: 'deny' },
        ],
      },
    },
  });
  for (const namespace of [dev.name, prod.name, service.namespace]) {
    await runKubectl(clusterKubeconfig(), ['create', 'secret', 'generic', 'db', '-n', namespace, '--from-literal=password=hunter2']);
    await applyYaml(clusterKubeconfig(), podYaml('web'), namespace);
  }
  denied = await service.createUser('user', { roles: ['no-prod-secrets', 'no-prod-pods'] });
  granted = await service.createUser('user');
  await grant(granted, [dev.name, service.namespace]);
});

afterAll(async () => {
  await service?.close();
  charts?.close();
});

describe('deny roles on every path', () => {
  it('refuses a resource route with reason resource_role and records the deny', async () => {
    const refused = await get(`/api/k8s/secrets/db?namespace=${prod.name}`, denied.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'resource_role', resource: 'secrets', namespace: prod.name } });
    expect(JSON.stringify(refused.body)).not.toContain('hunter2');
    expect((await get(`/api/k8s/secrets/db?namespace=${dev.name}`, denied.token)).body.data.password).toBeTruthy();
    expect(await denials(denied.username)).toContain('resource_role');
  });

  it('leaves the pods of denied namespaces out of /api/metrics/pod and refuses the namespace itself', async () => {
    const mine = (items: { namespace: string; name: string }[]) =>
      names(items).filter((entry) => [dev.name, prod.name].some((namespace) => entry.startsWith(`${namespace}/`)));
    await waitFor(async () => mine((await get('/api/metrics/pod', service.adminToken)).body.items ?? []).length === 2, 90_000, 1000);
    const listed = await get('/api/metrics/pod', denied.token);
    expect(listed.status).toBe(200);
    expect(mine(listed.body.items)).toEqual([`${dev.name}/web`]);
    const scoped = await get(`/api/metrics/pod?namespace=${prod.name}`, denied.token);
    expect(scoped.status).toBe(403);
    expect(scoped.body.details.reason).toBe('resource_role');
  }, 120_000);

  it('leaves the pods of denied namespaces out of /api/nodes/{name}/pods', async () => {
    await waitFor(async () => names((await get(`/api/nodes/${node}/pods`, service.adminToken)).body.items).includes(`${prod.name}/web`));
    const listed = names((await get(`/api/nodes/${node}/pods`, denied.token)).body.items);
    expect(listed).toContain(`${dev.name}/web`);
    expect(listed).not.toContain(`${prod.name}/web`);
  });

  it('refuses a helm install into a denied namespace, and one whose chart holds a denied kind, before helm runs', async () => {
    const intoProd = await install((await service.createUser('admin', { roles: ['no-prod'] })).token, prod.name);
    expect(intoProd.status).toBe(403);
    expect(intoProd.body.details).toMatchObject({ reason: 'resource_role', resource: 'secrets', namespace: prod.name });
    const deniedKind = await install((await service.createUser('admin', { roles: ['no-dev-configmaps'] })).token, dev.name);
    expect(deniedKind.status).toBe(403);
    expect(deniedKind.body.details).toMatchObject({ reason: 'resource_role', verb: 'create', resource: 'configmaps', namespace: dev.name });
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'demo-settings', '-n', dev.name])).code).not.toBe(0);
    expect((await get(`/api/helm/releases?namespace=${dev.name}`, service.adminToken)).body.items).toEqual([]);
  });

  it('leaves releases of denied namespaces out of the release list and refuses reading them', async () => {
    expect((await install(service.adminToken, prod.name, 'prod-demo')).status).toBe(201);
    const admin = await service.createUser('admin', { roles: ['no-prod'] });
    const inProd = (items: { namespace: string }[]) => items.filter((item) => item.namespace === prod.name).length;
    expect(inProd((await get('/api/helm/releases', service.adminToken)).body.items)).toBe(1);
    expect(inProd((await get('/api/helm/releases', admin.token)).body.items)).toBe(0);
    expect((await get(`/api/helm/releases/prod-demo?namespace=${prod.name}`, admin.token)).body.details.reason).toBe('resource_role');
    expect((await get(`/api/helm/releases/prod-demo/values?namespace=${prod.name}`, admin.token)).body.details.reason).toBe('resource_role');
    const uninstall = await service.api('DELETE', `/api/helm/releases/prod-demo?namespace=${prod.name}`, { token: admin.token });
    expect(uninstall.body.details.reason).toBe('resource_role');
    expect((await get(`/api/helm/releases?namespace=${prod.name}`, service.adminToken)).body.items.map((item: { name: string }) => item.name)).toEqual([
      'prod-demo',
    ]);
  });
});

describe('grants on every path', () => {
  it('lets a grant stand in for approval where it applies, and only there', async () => {
    await waitFor(async () => (await install(granted.token, dev.name)).status === 201);
    expect(await runKubectl(clusterKubeconfig(), ['get', 'configmap', 'demo-settings', '-n', dev.name, '-o', 'name'])).toContain('demo-settings');
    const elsewhere = await install(granted.token, prod.name, 'other');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.details.reason).toBe('approval_required');
  });
});

describe("Pilothouse's own namespace", () => {
  it('is closed to role user on the resource routes, even with a grant', async () => {
    const own = service.namespace;
    const refusals = [
      await get(`/api/k8s/secrets/db?namespace=${own}`, granted.token),
      await get(`/api/k8s/configmaps?namespace=${own}`, granted.token),
      await get(`/api/k8s/leases?namespace=${own}`, granted.token),
      await service.api('POST', '/api/pods/web/exec', { token: granted.token, body: { namespace: own, command: ['cat', '/proc/1/environ'] } }),
      await service.api('POST', '/api/pods/web/terminal/ticket', { token: granted.token, body: { namespace: own } }),
      await service.api('POST', '/api/portforward', { token: granted.token, body: { namespace: own, pod: 'web', podPort: 8080 } }),
      await install(granted.token, own),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(403);
      expect(response.body.details.reason).toBe('own_namespace');
    }
    expect((await get(`/api/k8s/pods?namespace=${own}`, granted.token)).status).toBe(200);
    expect((await get(`/api/k8s/secrets/db?namespace=${own}`, service.adminToken)).status).toBe(200);
  });

  it("leaves Pilothouse's Secrets out of a user's list across all namespaces", async () => {
    const listed = names((await get('/api/k8s/secrets', granted.token)).body.items);
    expect(listed).toContain(`${dev.name}/db`);
    expect(listed).not.toContain(`${service.namespace}/db`);
    expect(names((await get('/api/k8s/secrets', service.adminToken)).body.items)).toContain(`${service.namespace}/db`);
  });
});
