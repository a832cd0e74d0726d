import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { serveFixtureCharts, type ChartRepository } from '../../helpers/chart-repository.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Helm installs are authorized on exactly what they apply (ADR 0029): the chart is fetched and
 * rendered once with cluster access (lookup, Capabilities, hooks, crds/), every object of that
 * rendering is decided by the policy, and that same rendering is installed. The fixture charts
 * render differently under `helm template` (no cluster: lookup is empty, crds/ left out), which is
 * what authorization used to look at.
 */
const work = useNamespace('render-once');
const guarded = useNamespace('render-once-guarded');
let service: TestService;
let charts: ChartRepository;
/** role admin, denied every verb in `guarded` and the creation of CRDs. */
let denied: { username: string; token: string };

const crdName = 'gadgets.render-once.pilothouse.test';
const install = (token: string, body: Record<string, unknown>) =>
  service.api('POST', '/api/helm/install', { token, body: { namespace: work.name, repo: charts.url, values: {}, ...body } });
const exists = async (...args: string[]) => (await tryKubectl(clusterKubeconfig(), ['get', ...args])).code === 0;

/** The ConfigMap the lookup-target chart reads (with cluster access only) to choose where its objects and hooks go. */
async function target(release: string, data: Record<string, string>): Promise<void> {
  await applyYaml(clusterKubeconfig(), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${release}-target` }, data }), work.name);
}

beforeAll(async () => {
  charts = await serveFixtureCharts(['lookup-target', 'with-crd', 'demo']);
  service = await startTestService({
    config: {
      helm: { allow_http: true, allow_private_urls: true },
      authorization: {
        roles: [
          { name: 'no-guarded', resources: ['*'], namespaces: [guarded.name], verbs: ['*'], effect: 'deny' },
          { name: 'no-crds', resources: ['customresourcedefinitions'], namespaces: ['*'], verbs: ['create'], effect: 'deny' },
        ],
      },
    },
  });
  denied = await service.createUser('admin', { roles: ['no-guarded', 'no-crds'] });
});

afterAll(async () => {
  await tryKubectl(clusterKubeconfig(), ['delete', 'customresourcedefinition', crdName, '--ignore-not-found', '--wait=false']);
  await service?.close();
  charts?.close();
});

describe('helm install authorizes what it installs', () => {
  it('refuses an object that only a rendering with cluster access (lookup) puts in a denied namespace', async () => {
    await target('placed', { objectNamespace: guarded.name });
    const refused = await install(denied.token, { name: 'placed', chart: 'lookup-target' });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toMatchObject({ reason: 'resource_role', verb: 'create', resource: 'configmaps', namespace: guarded.name });
    expect(await exists('configmap', 'placed-placed', '-n', guarded.name)).toBe(false);
    expect(await exists('configmap', 'placed-main', '-n', work.name)).toBe(false);
    expect((await service.api('GET', `/api/helm/releases?namespace=${work.name}`, { token: service.adminToken })).body.items).toEqual([]);
  });

  it('refuses a hook that only a rendering with cluster access puts in a denied namespace', async () => {
    await target('hooked', { hookNamespace: guarded.name });
    const refused = await install(denied.token, { name: 'hooked', chart: 'lookup-target' });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toMatchObject({ reason: 'resource_role', resource: 'configmaps', namespace: guarded.name });
    expect(await exists('configmap', 'hooked-hooked', '-n', guarded.name)).toBe(false);
  });

  it("refuses the CRDs of a chart's crds/ directory, which helm install creates before anything else", async () => {
    const refused = await install(denied.token, { name: 'gadgets', chart: 'with-crd' });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toMatchObject({ reason: 'resource_role', verb: 'create', resource: 'customresourcedefinitions' });
    expect(await exists('customresourcedefinition', crdName)).toBe(false);
    expect(await exists('configmap', 'gadgets-settings', '-n', work.name)).toBe(false);
  });

  it('installs exactly the authorized rendering: lookup results, hooks and text that looks like a template', async () => {
    await target('allowed', { objectNamespace: work.name, hookNamespace: work.name });
    const installed = await install(denied.token, { name: 'allowed', chart: 'lookup-target', values: { greeting: 'hi' } });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    expect(installed.body).toMatchObject({ name: 'allowed', revision: 1, status: 'deployed', chart: 'lookup-target-0.1.0', appVersion: '1.0.0' });
    const kubectl = (...args: string[]) => runKubectl(clusterKubeconfig(), [...args, '-n', work.name]);
    expect(await kubectl('get', 'configmap', 'allowed-main', '-o', 'jsonpath={.data.greeting}')).toBe('hi');
    // Printed verbatim by the pinned chart: never rendered a second time.
    expect(await kubectl('get', 'configmap', 'allowed-main', '-o', 'jsonpath={.data.braces}')).toBe('{{ .Values.greeting }}');
    expect(await exists('configmap', 'allowed-placed', '-n', work.name)).toBe(true);
    expect(await exists('configmap', 'allowed-hooked', '-n', work.name)).toBe(true);
    const values = await service.api('GET', `/api/helm/releases/allowed/values?namespace=${work.name}&all=true`, { token: service.adminToken });
    expect(values.body.values).toEqual({ greeting: 'hi' });
  });
});

describe('a chart whose templates use the kinds of its own crds/', () => {
  it('is authorized on its CRDs and objects, then installs both', async () => {
    const installed = await install(service.adminToken, { name: 'tools', chart: 'with-crd' });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    expect(await exists('customresourcedefinition', crdName)).toBe(true);
    expect(
      await runKubectl(clusterKubeconfig(), ['get', 'gadgets.render-once.pilothouse.test', 'tools-gadget', '-n', work.name, '-o', 'jsonpath={.spec.size}']),
    ).toBe('3');
    expect(await exists('configmap', 'tools-settings', '-n', work.name)).toBe(true);
    const uninstalled = await service.api('DELETE', `/api/helm/releases/tools?namespace=${work.name}`, { token: service.adminToken });
    expect(uninstalled.status).toBe(200);
  });
});

describe('helm errors', () => {
  it('answers a chart reference helm cannot resolve with 400 and helm’s message', async () => {
    const refused = await service.api('POST', '/api/helm/install', {
      token: service.adminToken,
      body: { name: 'zero', namespace: work.name, chart: '0', values: {} },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(refused.body.details.message).toBeTruthy();
  });

  it("upgrades with the contract's body (no repo) from the repository the release was installed from", async () => {
    const call = (path: string, body: unknown) => service.api('POST', path, { token: service.adminToken, body });
    expect((await call('/api/helm/install', { name: 'keep', namespace: work.name, chart: 'demo', repo: charts.url, values: {} })).status).toBe(201);
    const upgraded = await call('/api/helm/upgrade', { name: 'keep', namespace: work.name, chart: 'demo', values: { greeting: 'again' } });
    expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(200);
    expect(upgraded.body).toMatchObject({ name: 'keep', revision: 2, status: 'deployed', chart: 'demo-0.1.0' });
    expect(await runKubectl(clusterKubeconfig(), ['get', 'configmap', 'keep-settings', '-n', work.name, '-o', 'jsonpath={.data.greeting}'])).toBe('again');
    const commands = service.deps.audit.query({ action: 'execute', limit: 100, offset: 0 }).items.map((entry) => entry.details.command);
    expect(commands).toContain(`helm upgrade keep demo -n ${work.name} --repo ${charts.url} --values -`);
  });

  it('updates no repositories when there are none (200), and answers 404 for a named one that does not exist', async () => {
    const update = (body: unknown) => service.api('POST', '/api/helm/repositories/update', { token: service.adminToken, body });
    expect(await update({})).toMatchObject({ status: 200, body: { updated: [] } });
    expect((await update({ names: ['ghost'] })).status).toBe(404);
    const document = await service.api('GET', '/api/openapi.json', { token: service.adminToken });
    expect(Object.keys(document.body.paths['/api/helm/repositories/update'].post.responses)).toEqual(expect.arrayContaining(['200', '404']));
  });

  it('answers every helm route with 503 and says so in /api/health when helm cannot run', async () => {
    const missing = await startTestService({ config: { tools: { helm: '/nonexistent/helm' } } });
    try {
      for (const [method, path, body] of [
        ['GET', '/api/helm/releases', undefined],
        ['GET', '/api/helm/repositories', undefined],
        ['POST', '/api/helm/install', { name: 'x', namespace: work.name, chart: 'demo', values: {} }],
        ['DELETE', `/api/helm/releases/x?namespace=${work.name}`, undefined],
      ] as const) {
        const answer = await missing.api(method, path, { token: missing.adminToken, body });
        expect(answer.status, path).toBe(503);
        expect(answer.body, path).toMatchObject({ code: 'UNAVAILABLE', error: 'helm is not installed (set `tools.helm` or install helm)' });
      }
      const health = await missing.api('GET', '/api/health');
      expect(health.body.details.helm).toEqual({ status: 'unavailable', reason: 'helm is not installed (set `tools.helm` or install helm)' });
      expect((await service.api('GET', '/api/health')).body.details.helm).toEqual({ status: 'available' });
    } finally {
      await missing.close();
    }
  });
});
