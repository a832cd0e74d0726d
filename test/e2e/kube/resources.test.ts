import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const first = useNamespace('res-a');
const second = useNamespace('res-b');
let service: TestService;

function token(): { token?: string } {
  return { token: service.adminToken };
}

beforeAll(async () => {
  service = await startTestService();
  const kubeconfig = clusterKubeconfig();
  await applyYaml(
    kubeconfig,
    `apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {color: blue}
---
apiVersion: v1
kind: Secret
metadata: {name: credentials}
stringData: {password: hunter2}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.27}]
`,
    first.name,
  );
  await applyYaml(kubeconfig, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\ndata: {a: b}\n`, second.name);
});

afterAll(async () => {
  await service?.close();
});

describe('resource API on the real cluster', () => {
  it('lists pods with the contract item shape once the deployment runs', async () => {
    await waitFor(async () => {
      const response = await service.api('GET', `/api/k8s/pods?namespace=${first.name}`, token());
      return response.body.total === 2 && response.body.items.every((pod: { status: string }) => pod.status === 'Running');
    }, 90_000);
    const { status, body } = await service.api('GET', `/api/k8s/pods?namespace=${first.name}`, token());
    expect(status).toBe(200);
    const pod = body.items[0];
    expect(pod.name).toMatch(/^web-/);
    expect(pod.namespace).toBe(first.name);
    expect(pod.ready).toMatch(/^\d+\/\d+$/);
    expect(typeof pod.restarts).toBe('number');
    expect(pod.age).toMatch(/^\d+[smhdy]$/);
  });

  it('accepts short, singular and plural names like kubectl', async () => {
    for (const name of ['deploy', 'deployment', 'deployments', 'deployments.apps']) {
      const { status, body } = await service.api('GET', `/api/k8s/${name}?namespace=${first.name}`, token());
      expect(status, name).toBe(200);
      expect(body.items.map((item: { name: string }) => item.name)).toEqual(['web']);
      // kubectl's printer columns come from the API server's Table format
      expect(body.items[0]).toHaveProperty('upToDate');
    }
  });

  it('lists across all namespaces when namespace is absent', async () => {
    const { body } = await service.api('GET', '/api/k8s/configmaps', token());
    const names = body.items.map((item: { namespace: string; name: string }) => `${item.namespace}/${item.name}`);
    expect(names).toContain(`${first.name}/settings`);
    expect(names).toContain(`${second.name}/other`);
    expect(body.total).toBe(body.items.length);
  });

  it('lists cluster-scoped kinds and CRDs', async () => {
    const nodes = await service.api('GET', '/api/k8s/nodes', token());
    expect(nodes.body.total).toBeGreaterThan(0);
    expect(nodes.body.items[0].namespace).toBeUndefined();
    const crds = await service.api('GET', '/api/k8s/crd', token());
    expect(crds.body.items.map((item: { name: string }) => item.name)).toContain('mcpservers.pilothouse.dev');
    const forwards = await service.api('GET', '/api/k8s/pf', token());
    expect(forwards.status).toBe(200);
  });

  it('shows a change in the next list (watch-fed cache)', async () => {
    await service.api('GET', `/api/k8s/configmaps?namespace=${first.name}`, token());
    await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'fresh', '-n', first.name, '--from-literal=x=y']);
    await waitFor(
      async () => {
        const { body } = await service.api('GET', `/api/k8s/configmaps?namespace=${first.name}`, token());
        return body.items.some((item: { name: string }) => item.name === 'fresh');
      },
      5000,
      100,
    );
    await runKubectl(clusterKubeconfig(), ['delete', 'configmap', 'fresh', '-n', first.name]);
    await waitFor(
      async () => {
        const { body } = await service.api('GET', `/api/k8s/configmaps?namespace=${first.name}`, token());
        return !body.items.some((item: { name: string }) => item.name === 'fresh');
      },
      5000,
      100,
    );
  });

  it('reads one object as JSON and as YAML without managedFields', async () => {
    const json = await service.api('GET', `/api/k8s/configmaps/settings?namespace=${first.name}`, token());
    expect(json.body.data).toEqual({ color: 'blue' });
    const yamlResponse = await service.api('GET', `/api/k8s/configmaps/settings/yaml?namespace=${first.name}`, token());
    expect(yamlResponse.headers.get('content-type')).toContain('text/yaml');
    expect(yamlResponse.text).toContain('color: blue');
    expect(yamlResponse.text).toContain('kind: ConfigMap');
    expect(yamlResponse.text).not.toContain('managedFields');
  });

  it('describes like kubectl describe', async () => {
    const response = await service.api('GET', `/api/k8s/deployments/web/describe?namespace=${first.name}`, token());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(response.text).toMatch(/^Name:\s+web$/m);
    expect(response.text).toMatch(/^Replicas:\s+2 desired/m);
  });

  it('deletes and returns the reference, then 404', async () => {
    await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'doomed', '-n', first.name]);
    const deleted = await service.api('DELETE', `/api/k8s/configmaps/doomed?namespace=${first.name}`, token());
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ kind: 'ConfigMap', name: 'doomed', namespace: first.name, apiVersion: 'v1' });
    const again = await service.api('DELETE', `/api/k8s/configmaps/doomed?namespace=${first.name}`, token());
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
    const audit = service.deps.audit.query({ limit: 10, offset: 0, action: 'execute' });
    expect(audit.items.some((entry) => entry.details.command === `kubectl delete configmaps doomed -n ${first.name}`)).toBe(true);
  });

  it('answers errors in the contract body', async () => {
    const cases: [string, number, string][] = [
      ['/api/k8s/frobnicators', 404, 'NOT_FOUND'],
      [`/api/k8s/configmaps/missing?namespace=${first.name}`, 404, 'NOT_FOUND'],
      ['/api/k8s/configmaps/settings', 400, 'VALIDATION_ERROR'],
      [`/api/k8s/configmaps/Bad_Name?namespace=${first.name}`, 400, 'VALIDATION_ERROR'],
      ['/api/k8s/configmaps?namespace=Not..Valid', 400, 'VALIDATION_ERROR'],
      ['/api/no/such/route', 404, 'NOT_FOUND'],
    ];
    for (const [path, status, code] of cases) {
      const response = await service.api('GET', path, token());
      expect(response.status, path).toBe(status);
      expect(response.body.code, path).toBe(code);
      expect(typeof response.body.error).toBe('string');
      expect(response.body.details).toBeTypeOf('object');
      expect(response.text).not.toMatch(/at .*\.(ts|js):\d+/);
    }
  });

  it('reports health with real checks', async () => {
    const { status, body } = await service.api('GET', '/api/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'healthy', kubernetes: 'connected', llm: 'unconfigured' });
  });
});

describe('cache bounds', () => {
  it('keeps at most maxCaches watches, evicting the least recently used, and still answers', async () => {
    const { CacheManager } = await import('../../../src/kube/cache/cache-manager.js');
    const { createLogger } = await import('../../../src/log.js');
    const client = service.deps.home.kube.forIdentity(undefined);
    const caches = new CacheManager(createLogger('silent'), () => client, { idleMs: 60_000, maxCaches: 3 });
    const configmaps = await service.deps.home.discovery.resolve('configmaps');
    try {
      for (const namespace of ['ns-a', 'ns-b', 'ns-c', 'ns-d', 'ns-e', first.name]) {
        await caches.get(client, configmaps, namespace);
        expect(caches.count).toBeLessThanOrEqual(3);
      }
      const cache = await caches.get(client, configmaps, first.name);
      expect(cache.snapshot().some((row) => row.object?.metadata?.name === 'settings')).toBe(true);
    } finally {
      caches.close();
    }
  });
});
