import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { serveDemoChartRepository, type ChartRepository } from '../../helpers/chart-repository.js';

const namespace = useNamespace('helm');
let service: TestService;
let repository: ChartRepository | undefined;
let repositoryUrl = '';

const kubectl = (...args: string[]) => runKubectl(clusterKubeconfig(), [...args, '-n', namespace.name]);
const call = (method: string, path: string, body?: unknown) => service.api(method, path, { body, token: service.adminToken });

beforeAll(async () => {
  repository = await serveDemoChartRepository();
  repositoryUrl = repository.url;
  // The fixture repository is http on 127.0.0.1: allowed only with these keys.
  service = await startTestService({ config: { helm: { allow_http: true, allow_private_urls: true } } });
});

afterAll(async () => {
  await service?.close();
  repository?.close();
});

describe('helm releases', () => {
  it('installs from a repository URL and creates the objects', async () => {
    const response = await call('POST', '/api/helm/install', {
      name: 'demo',
      namespace: namespace.name,
      chart: 'demo',
      repo: repositoryUrl,
      values: { greeting: 'hi there' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'demo', namespace: namespace.name, revision: 1, status: 'deployed', chart: 'demo-0.1.0', appVersion: '1.0.0' });
    expect(await kubectl('get', 'configmap', 'demo-settings', '-o', 'jsonpath={.data.greeting}')).toBe('hi there');
  });

  it('lists releases in a namespace and in all namespaces', async () => {
    const scoped = await call('GET', `/api/helm/releases?namespace=${namespace.name}`);
    expect(scoped.body.items).toEqual([
      expect.objectContaining({ name: 'demo', namespace: namespace.name, revision: 1, status: 'deployed', chart: 'demo-0.1.0', appVersion: '1.0.0' }),
    ]);
    const all = await call('GET', '/api/helm/releases');
    expect(all.body.items.some((item: { name: string; namespace: string }) => item.name === 'demo' && item.namespace === namespace.name)).toBe(true);
  });

  it('upgrades values, shows details, history, values and manifest', async () => {
    const upgraded = await call('POST', '/api/helm/upgrade', {
      name: 'demo',
      namespace: namespace.name,
      chart: 'demo',
      repo: repositoryUrl,
      values: { greeting: 'upgraded' },
    });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.revision).toBe(2);
    expect(await kubectl('get', 'configmap', 'demo-settings', '-o', 'jsonpath={.data.greeting}')).toBe('upgraded');
    expect((await call('GET', `/api/helm/releases/demo?namespace=${namespace.name}`)).body).toMatchObject({ name: 'demo', revision: 2, status: 'deployed' });
    const history = await call('GET', `/api/helm/releases/demo/history?namespace=${namespace.name}`);
    expect(history.body.items.map((item: { revision: number }) => item.revision)).toEqual([1, 2]);
    expect((await call('GET', `/api/helm/releases/demo/values?namespace=${namespace.name}`)).body).toEqual({ values: { greeting: 'upgraded' } });
    expect((await call('GET', `/api/helm/releases/demo/values?namespace=${namespace.name}&all=true`)).body.values).toEqual({
      greeting: 'upgraded',
      replicas: 1,
    });
    const manifest = await call('GET', `/api/helm/releases/demo/manifest?namespace=${namespace.name}`);
    expect(manifest.headers.get('content-type')).toContain('yaml');
    expect(manifest.text).toContain('name: demo-settings');
  });

  it('rolls back to the previous revision', async () => {
    const rolled = await call('POST', '/api/helm/releases/demo/rollback', { namespace: namespace.name });
    expect(rolled.status).toBe(200);
    expect(rolled.body.revision).toBe(3);
    expect(await kubectl('get', 'configmap', 'demo-settings', '-o', 'jsonpath={.data.greeting}')).toBe('hi there');
    expect((await call('POST', '/api/helm/releases/demo/rollback', { namespace: namespace.name, revision: 99 })).status).toBe(404);
  });

  it("maps helm's errors and rejects bad input before running helm", async () => {
    const again = await call('POST', '/api/helm/install', { name: 'demo', namespace: namespace.name, chart: 'demo', repo: repositoryUrl, values: {} });
    expect(again.status).toBe(400);
    expect(again.body.details.message).toContain('cannot re-use a name');
    expect((await call('GET', `/api/helm/releases/ghost?namespace=${namespace.name}`)).status).toBe(404);
    expect(
      (await call('POST', '/api/helm/install', { name: 'x', namespace: namespace.name, chart: '../../etc', repo: repositoryUrl, values: {} })).status,
    ).toBe(400);
    expect((await call('POST', '/api/helm/install', { name: 'x', namespace: namespace.name, chart: 'demo', repo: 'file:///etc', values: {} })).status).toBe(
      400,
    );
    expect((await call('POST', '/api/helm/install', { name: 'Bad_Name', namespace: namespace.name, chart: 'demo', values: {} })).status).toBe(400);
    const missingChart = await call('POST', '/api/helm/install', { name: 'other', namespace: namespace.name, chart: 'nope', repo: repositoryUrl, values: {} });
    expect(missingChart.status).toBe(404);
  });

  it('uninstalls', async () => {
    const response = await call('DELETE', `/api/helm/releases/demo?namespace=${namespace.name}`);
    expect(response.body).toEqual({ name: 'demo', namespace: namespace.name, uninstalled: true });
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'demo-settings', '-n', namespace.name])).code).not.toBe(0);
    expect((await call('DELETE', `/api/helm/releases/demo?namespace=${namespace.name}`)).status).toBe(404);
  });

  it('audits installs with the helm command line', async () => {
    const commands = service.deps.audit.query({ action: 'execute', limit: 100, offset: 0 }).items.map((entry) => entry.details.command);
    expect(commands).toContain(`helm install demo demo -n ${namespace.name} --repo ${repositoryUrl} --values -`);
    expect(commands).toContain(`helm uninstall demo -n ${namespace.name}`);
  });
});

describe('helm repositories', () => {
  it('adds, lists, updates, searches and removes a repository (state in the data dir)', async () => {
    expect((await call('GET', '/api/helm/repositories')).body).toEqual({ items: [] });
    expect((await call('POST', '/api/helm/repositories', { name: 'local', url: repositoryUrl })).status).toBe(201);
    expect((await call('GET', '/api/helm/repositories')).body.items).toEqual([{ name: 'local', url: repositoryUrl }]);
    expect((await call('POST', '/api/helm/repositories/update', {})).body).toEqual({ updated: ['local'] });
    const search = await call('GET', '/api/helm/charts?keyword=demo');
    expect(search.body.items).toEqual([expect.objectContaining({ name: 'local/demo', version: '0.1.0', appVersion: '1.0.0' })]);
    const installed = await call('POST', '/api/helm/install', { name: 'from-repo', namespace: namespace.name, chart: 'local/demo', values: {} });
    expect(installed.status).toBe(201);
    expect(readFileSync(join(service.dataDir, 'helm', 'config', 'repositories.yaml'), 'utf8')).toContain('local');
    expect((await call('DELETE', '/api/helm/repositories/local')).body).toEqual({ name: 'local', removed: true });
    expect((await call('DELETE', '/api/helm/repositories/local')).status).toBe(404);
  });

  it('rejects a bad repository URL and reports an unreachable one', async () => {
    expect((await call('POST', '/api/helm/repositories', { name: 'bad', url: 'not a url' })).status).toBe(400);
    const unreachable = await call('POST', '/api/helm/repositories', { name: 'gone', url: 'http://127.0.0.1:9/charts' });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.details.message).toBeTruthy();
  });
});

describe('helm hardening', () => {
  it('lets only admins add, repoint, update or remove repositories', async () => {
    const user = await service.createUser('user');
    for (const [method, path, body] of [
      ['POST', '/api/helm/repositories', { name: 'mine', url: repositoryUrl }],
      ['POST', '/api/helm/repositories/update', {}],
      ['DELETE', '/api/helm/repositories/mine', undefined],
    ] as const) {
      const refused = await service.api(method, path, { token: user.token, body });
      expect(refused.status, path).toBe(403);
      // role, not approval_required: no access grant can open these routes to a user.
      expect(refused.body.details.reason, path).toBe('role');
    }
  });

  it('never repoints an existing repository name without force: true', async () => {
    expect((await call('POST', '/api/helm/repositories', { name: 'pinned', url: repositoryUrl })).status).toBe(201);
    const elsewhere = repositoryUrl.replace('127.0.0.1', 'localhost');
    const refused = await call('POST', '/api/helm/repositories', { name: 'pinned', url: elsewhere });
    expect(refused.status).toBe(400);
    expect(refused.body.details.reason).toBe('repository_exists');
    expect((await call('GET', '/api/helm/repositories')).body.items).toContainEqual({ name: 'pinned', url: repositoryUrl });
    expect((await call('POST', '/api/helm/repositories', { name: 'pinned', url: repositoryUrl })).status).toBe(201);
    expect((await call('POST', '/api/helm/repositories', { name: 'pinned', url: elsewhere, force: true })).status).toBe(201);
    expect((await call('GET', '/api/helm/repositories')).body.items).toContainEqual({ name: 'pinned', url: elsewhere });
  });

  it('shares one admin-managed repository file with every user', async () => {
    const viewer = await service.createUser('viewer');
    const search = await service.api('GET', '/api/helm/charts?keyword=demo', { token: viewer.token });
    expect(search.body.items).toEqual([expect.objectContaining({ name: 'pinned/demo' })]);
    expect(readFileSync(join(service.dataDir, 'helm', 'config', 'repositories.yaml'), 'utf8')).toContain('pinned');
    expect((await call('DELETE', '/api/helm/repositories/pinned')).status).toBe(200);
  });

  it('never passes a user value starting with "-" to helm as a flag', async () => {
    for (const keyword of ['--repository-config=/etc/passwd', '-h', '--debug']) {
      const refused = await call('GET', `/api/helm/charts?keyword=${encodeURIComponent(keyword)}`);
      expect(refused.status, keyword).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
    }
    const version = await call('POST', '/api/helm/install', {
      name: 'flagged',
      namespace: namespace.name,
      chart: 'demo',
      repo: repositoryUrl,
      version: '--devel',
      values: {},
    });
    expect(version.status).toBe(400);
    expect(version.body.details.fields).toHaveProperty('version');
  });

  it('refuses the API server as a chart source even when private URLs are allowed', async () => {
    const server = /server:\s*(\S+)/.exec(readFileSync(clusterKubeconfig(), 'utf8'))?.[1] ?? '';
    const refused = await call('POST', '/api/helm/repositories', { name: 'apiserver', url: `${server}/api` });
    expect(refused.status).toBe(400);
    expect(refused.body.details.reason).toBe('api_server_address');
  });

  it('by default takes only https URLs that resolve to neither loopback, link-local nor metadata addresses', async () => {
    const strict = await startTestService();
    try {
      const add = (url: string) => strict.api('POST', '/api/helm/repositories', { token: strict.adminToken, body: { name: 'probe', url } });
      for (const [url, reason] of [
        [repositoryUrl, 'insecure_url'],
        [repositoryUrl.replace('http:', 'https:'), 'private_address'],
        ['https://localhost/charts', 'private_address'],
        ['https://169.254.169.254/latest/meta-data', 'private_address'],
        ['https://[fd00:ec2::254]/', 'private_address'],
        ['https://[::1]/', 'private_address'],
      ] as const) {
        const refused = await add(url);
        expect(refused.status, url).toBe(400);
        expect(refused.body.details, url).toMatchObject({ field: 'url', reason });
      }
      const install = await strict.api('POST', '/api/helm/install', {
        token: strict.adminToken,
        body: { name: 'x', namespace: namespace.name, chart: 'demo', repo: 'https://127.0.0.1:1/', values: {} },
      });
      expect(install.status).toBe(400);
      expect(install.body.details).toMatchObject({ field: 'repo', reason: 'private_address' });
      expect((await strict.api('GET', '/api/helm/repositories', { token: strict.adminToken })).body.items).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});
