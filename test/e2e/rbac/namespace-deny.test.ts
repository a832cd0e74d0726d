import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/rbac/principal.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * A deny role on namespace X covers the Namespace X object itself, on every HTTP route, as it does
 * for the AI's kubectl through the policy proxy: both read the request the same way
 * (src/rbac/request-attributes.ts). Describe text leaves out what the caller may not see.
 */
const open = useNamespace('nd-open');
const closed = useNamespace('nd-closed');
const node = 'kwok-node-0';
let service: TestService;
/** role admin, denied everything in the closed namespace. */
let denied: { username: string; token: string };
/** role admin, denied quotas and limit ranges in the open namespace. */
let noQuotas: { username: string; token: string };
/** role admin, denied ConfigMaps in `default`. */
let noDefaultConfigMaps: { username: string; token: string };

const podYaml = (name: string): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeName: ${node}
  containers: [{name: main, image: busybox}]`;

const limitRangeYaml = `apiVersion: v1
kind: LimitRange
metadata: {name: container-defaults}
spec:
  limits: [{type: Container, default: {cpu: 250m}, defaultRequest: {cpu: 125m}}]`;

const kubectl = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), args);
const namespaceJson = async (name: string): Promise<{ metadata: { labels?: Record<string, string>; deletionTimestamp?: string } }> =>
  JSON.parse(await kubectl('get', 'namespace', name, '-o', 'json'));

/** The caller's denied route requests in the audit log: `<method> <path>` of each. */
async function auditedDenials(username: string): Promise<string[]> {
  const response = await service.api('GET', `/api/audit?user=${username}&action=execute&limit=200`, { token: service.adminToken });
  return response.body.items
    .filter((entry: { decision: string; details: { reason?: string } }) => entry.decision === 'deny' && entry.details.reason === 'resource_role')
    .map((entry: { details: { method: string; path: string } }) => `${entry.details.method} ${entry.details.path}`);
}

/** The names in the first `snapshot` event of a live list. */
async function firstSnapshot(response: Response): Promise<string[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the stream ended before a snapshot');
    buffer += decoder.decode(value, { stream: true });
    const block = buffer.split('\n\n').find((part) => /^event: snapshot$/m.test(part));
    const data = block ? /^data: (.+)$/m.exec(block)?.[1] : undefined;
    if (data) return (JSON.parse(data) as { items: { name: string }[] }).items.map((item) => item.name);
  }
}

beforeAll(async () => {
  service = await startTestService({
    config: {
      authorization: {
        roles: [
          { name: 'no-closed', resources: ['*'], namespaces: [closed.name], verbs: ['*'], effect: 'deny' },
          { name: 'no-open-quotas', resources: ['resourcequotas', 'limits'], namespaces: [open.name], verbs: ['*'], effect: 'deny' },
          { name: 'no-default-configmaps', resources: ['configmaps'], namespaces: ['default'], verbs: ['*'], effect: 'deny' },
        ],
      },
    },
  });
  for (const namespace of [open.name, closed.name]) {
    await applyYaml(clusterKubeconfig(), podYaml(`pod-of-${namespace}`), namespace);
    await kubectl('create', 'quota', `quota-of-${namespace}`, '--hard=pods=20', '-n', namespace);
    await applyYaml(clusterKubeconfig(), limitRangeYaml, namespace);
    await kubectl('create', 'configmap', 'settings', '-n', namespace, '--from-literal=a=b');
  }
  denied = await service.createUser('admin', { roles: ['no-closed'] });
  noQuotas = await service.createUser('admin', { roles: ['no-open-quotas'] });
  noDefaultConfigMaps = await service.createUser('admin', { roles: ['no-default-configmaps'] });
});

afterAll(async () => {
  await service?.close();
});

describe('a deny role on a namespace covers the Namespace object', () => {
  it('refuses deleting the denied Namespace (403 resource_role, audited deny); the namespace stays', async () => {
    const response = await service.api('DELETE', `/api/k8s/namespaces/${closed.name}`, { token: denied.token });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      code: 'FORBIDDEN',
      details: { reason: 'resource_role', verb: 'delete', resource: 'namespaces', namespace: closed.name },
    });
    const namespace = await namespaceJson(closed.name);
    expect(namespace.metadata.deletionTimestamp).toBeUndefined();
    expect(await auditedDenials(denied.username)).toContain(`DELETE /api/k8s/namespaces/${closed.name}`);
  });

  it('refuses reading it on every read route and by every name of the kind', async () => {
    for (const kind of ['namespaces', 'namespace', 'ns', 'Namespace']) {
      for (const suffix of ['', '/yaml', '/describe']) {
        const path = `/api/k8s/${kind}/${closed.name}${suffix}`;
        const response = await service.api('GET', path, { token: denied.token });
        expect(response.status, path).toBe(403);
        expect(response.body.details, path).toMatchObject({ reason: 'resource_role', resource: 'namespaces', namespace: closed.name });
      }
    }
    // A namespace in the query names no other object: a cluster-scoped Namespace is in itself whatever it says.
    const smuggled = await service.api('GET', `/api/k8s/namespaces/${closed.name}?namespace=${open.name}`, { token: denied.token });
    expect(smuggled.status).toBe(403);
    expect((await service.api('GET', `/api/k8s/namespaces/${open.name}`, { token: denied.token })).status).toBe(200);
    expect(await auditedDenials(denied.username)).toContain(`GET /api/k8s/ns/${closed.name}/describe`);
  });

  it('refuses changing it by apply (the one write path for an edited object); its labels stay as they were', async () => {
    const current = await service.api('GET', `/api/k8s/namespaces/${closed.name}`, { token: service.adminToken });
    expect(current.status).toBe(200);
    const edited = { ...current.body, metadata: { ...current.body.metadata, labels: { ...current.body.metadata.labels, taken: 'edit' } } };
    const editedApply = await service.api('POST', '/api/k8s/namespaces/apply', { token: denied.token, body: edited });
    expect(editedApply.status).toBe(403);
    expect(editedApply.body.details).toMatchObject({ reason: 'resource_role', namespace: closed.name });
    const manifest = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: closed.name, labels: { taken: 'apply' } } };
    const applied = await service.api('POST', '/api/k8s/namespaces/apply', { token: denied.token, body: manifest });
    expect(applied.status).toBe(403);
    expect(applied.body.details).toMatchObject({ reason: 'resource_role', namespace: closed.name });
    expect((await namespaceJson(closed.name)).metadata.labels?.taken).toBeUndefined();
    // The same caller still edits a namespace it may see.
    const allowed = await service.api('POST', '/api/k8s/namespaces/apply', {
      token: denied.token,
      body: { ...manifest, metadata: { name: open.name, labels: { taken: 'apply' } } },
    });
    expect(allowed.status).toBe(200);
    expect((await namespaceJson(open.name)).metadata.labels?.taken).toBe('apply');
  });

  it('leaves the denied namespace out of the namespace list, and everything in it out of other lists', async () => {
    let names: string[] = [];
    await waitFor(async () => {
      const response = await service.api('GET', '/api/k8s/namespaces', { token: denied.token });
      expect(response.status).toBe(200);
      names = response.body.items.map((item: { name: string }) => item.name);
      return names.includes(open.name);
    });
    expect(names).not.toContain(closed.name);
    const unrestricted = await service.api('GET', '/api/k8s/namespaces', { token: service.adminToken });
    expect(unrestricted.body.items.map((item: { name: string }) => item.name)).toContain(closed.name);
    const configmaps = await service.api('GET', '/api/k8s/configmaps', { token: denied.token });
    expect(configmaps.body.items.map((item: { namespace: string }) => item.namespace)).not.toContain(closed.name);
    expect((await service.api('GET', `/api/k8s/events?namespace=${closed.name}`, { token: denied.token })).status).toBe(403);
  });

  it('leaves the denied namespace out of the live namespace list (SSE snapshot)', async () => {
    const controller = new AbortController();
    const response = await fetch(`${service.url}/api/k8s/namespaces/watch`, {
      headers: { Authorization: `Bearer ${denied.token}` },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const snapshot = await firstSnapshot(response);
    controller.abort();
    expect(snapshot).toContain(open.name);
    expect(snapshot).not.toContain(closed.name);
  });

  it('gives the AI (through the policy proxy) and the route the same answer for the Namespace, its status and its objects', async () => {
    const principal: Principal = { username: denied.username, role: 'admin', roles: ['no-closed'] };
    const session = await service.deps.proxyGateway.open({ principal, mode: 'approved' });
    try {
      const kubeconfig = session.kubeconfigPath;
      const finalize = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: closed.name }, spec: { finalizers: [] } });
      for (const [args, input] of [
        [['get', 'namespace', closed.name]],
        [['get', '--raw', `/api/v1/namespaces/${closed.name}/status`]],
        [['replace', '--raw', `/api/v1/namespaces/${closed.name}/finalize`, '-f', '-'], finalize],
        [['delete', 'namespace', closed.name, '--wait=false']],
        [['get', 'configmap', 'settings', '-n', closed.name]],
      ] as [string[], string?][]) {
        const result = await tryKubectl(kubeconfig, args, input);
        expect(result.code, args.join(' ')).not.toBe(0);
        expect(result.stderr, args.join(' ')).toMatch(/forbidden|denies/i);
      }
      expect((await tryKubectl(kubeconfig, ['get', 'namespace', open.name])).code).toBe(0);
    } finally {
      await session.close();
    }
    expect((await namespaceJson(closed.name)).metadata.deletionTimestamp).toBeUndefined();
    const route = await service.api('GET', `/api/k8s/configmaps/settings?namespace=${closed.name}`, { token: denied.token });
    expect(route.status).toBe(403);
  });
});

describe('apply decides on the object it writes', () => {
  it('refuses a manifest whose metadata names the denied namespace, whatever a top-level namespace says', async () => {
    const manifest = { apiVersion: 'v1', kind: 'ConfigMap', namespace: open.name, metadata: { name: 'smuggled', namespace: closed.name }, data: { a: 'b' } };
    const response = await service.api('POST', '/api/k8s/configmaps/apply', { token: denied.token, body: manifest });
    expect(response.status).toBe(403);
    expect(response.body.details).toMatchObject({ reason: 'resource_role', namespace: closed.name });
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'smuggled', '-n', closed.name])).code).not.toBe(0);
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'smuggled', '-n', open.name])).code).not.toBe(0);
  });

  it('refuses a top-level namespace beside an allowed metadata namespace (400), writing nothing anywhere', async () => {
    const manifest = { apiVersion: 'v1', kind: 'ConfigMap', namespace: closed.name, metadata: { name: 'decoy', namespace: open.name }, data: { a: 'b' } };
    const response = await service.api('POST', '/api/k8s/configmaps/apply', { token: denied.token, body: manifest });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { namespace: expect.any(String) } } });
    for (const namespace of [open.name, closed.name])
      expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'decoy', '-n', namespace])).code).not.toBe(0);
    const plain = await service.api('POST', '/api/k8s/configmaps/apply', { token: denied.token, body: { ...manifest, namespace: undefined } });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.object.metadata.namespace).toBe(open.name);
  });

  it('decides a manifest without a namespace in the default it is written to, not in a top-level namespace', async () => {
    const name = `nd-default-${Date.now()}`;
    const manifest = { apiVersion: 'v1', kind: 'ConfigMap', namespace: open.name, metadata: { name }, data: { a: 'b' } };
    const response = await service.api('POST', '/api/k8s/configmaps/apply', { token: noDefaultConfigMaps.token, body: manifest });
    expect(response.status).toBe(403);
    expect(response.body.details).toMatchObject({ reason: 'resource_role', namespace: 'default' });
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', name, '-n', 'default'])).code).not.toBe(0);
    const inOpen = await service.api('POST', '/api/k8s/configmaps/apply?dryRun=true', {
      token: noDefaultConfigMaps.token,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: open.name }, data: { a: 'b' } },
    });
    expect(inOpen.status, JSON.stringify(inOpen.body)).toBe(200);
  });
});

describe('describe shows only what the caller may see', () => {
  it("leaves a node's pods of denied namespaces (and the totals that count them) out of its describe text", async () => {
    const podOfClosed = `pod-of-${closed.name}`;
    const podOfOpen = `pod-of-${open.name}`;
    await waitFor(async () => {
      const full = await service.api('GET', `/api/k8s/nodes/${node}/describe`, { token: service.adminToken });
      return full.text.includes(podOfClosed) && full.text.includes(podOfOpen);
    });
    const response = await service.api('GET', `/api/k8s/nodes/${node}/describe`, { token: denied.token });
    expect(response.status).toBe(200);
    expect(response.text).toContain(podOfOpen);
    expect(response.text).not.toContain(podOfClosed);
    expect(response.text).not.toContain(closed.name);
    expect(response.text).toMatch(/Allocated resources:\s+<not shown/);
  });

  it("leaves out a namespace's quotas and limit ranges where a role denies them, and nothing else", async () => {
    const mine = await service.api('GET', `/api/k8s/namespaces/${open.name}/describe`, { token: noQuotas.token });
    expect(mine.status).toBe(200);
    expect(mine.text).toContain(`Name:`);
    expect(mine.text).not.toContain(`quota-of-${open.name}`);
    expect(mine.text).not.toContain('250m');
    expect(mine.text).toMatch(/Resource Quotas:\s+<not shown/);
    const other = await service.api('GET', `/api/k8s/namespaces/${closed.name}/describe`, { token: noQuotas.token });
    expect(other.text).toContain(`quota-of-${closed.name}`);
    expect(other.text).toContain('250m');
    const full = await service.api('GET', `/api/k8s/namespaces/${open.name}/describe`, { token: service.adminToken });
    expect(full.text).toContain(`quota-of-${open.name}`);
  });

  it('refuses describing the denied namespace and its objects', async () => {
    const namespace = await service.api('GET', `/api/k8s/namespaces/${closed.name}/describe`, { token: denied.token });
    expect(namespace.status).toBe(403);
    expect(namespace.text).not.toContain(`quota-of-${closed.name}`);
    const quota = await service.api('GET', `/api/k8s/resourcequotas/quota-of-${closed.name}/describe?namespace=${closed.name}`, { token: denied.token });
    expect(quota.status).toBe(403);
  });
});
