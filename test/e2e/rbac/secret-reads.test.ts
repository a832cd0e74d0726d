import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../../src/config/schema.js';
import { serveFixtureCharts, type ChartRepository } from '../../helpers/chart-repository.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('secrets');
const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';
const helmConfig: ConfigInput = { helm: { allow_http: true, allow_private_urls: true } };
let service: TestService;
let repository: ChartRepository;
let viewer: { username: string; token: string };
let user: { username: string; token: string };

beforeAll(async () => {
  repository = await serveFixtureCharts(['vault']);
  service = await startTestService({ config: helmConfig });
  [viewer, user] = await Promise.all([service.createUser('viewer'), service.createUser('user')]);
  const kubeconfig = clusterKubeconfig();
  // kubectl apply writes the last-applied annotation, which repeats the Secret's values.
  await applyYaml(
    kubeconfig,
    `apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {password: hunter2-applied}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\ndata: {a: b}\n`,
    namespace.name,
  );
  await applyYaml(
    kubeconfig,
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: talker\n  annotations: {pilothouse.dev/logs: "line one\\nline two"}\nspec:\n  containers: [{name: app, image: busybox}]\n`,
    namespace.name,
  );
  await tryKubectl(kubeconfig, ['create', 'namespace', service.namespace]);
  await applyYaml(
    kubeconfig,
    `apiVersion: pilothouse.dev/v1alpha1\nkind: MCPServer\nmetadata: {name: tokenized}\nspec: {command: npx, args: [some-server], env: {API_TOKEN: mcp-env-secret}, enabled: false}\n`,
    service.namespace,
  );
  const installed = await service.api('POST', '/api/helm/install', {
    token: service.adminToken,
    body: { name: 'vault', namespace: namespace.name, chart: 'vault', repo: repository.url, values: { password: 'helm-secret-value' } },
  });
  expect(installed.status).toBe(201);
  await waitFor(async () => (await runKubectl(kubeconfig, ['get', 'pod', 'talker', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running');
}, 120_000);

afterAll(async () => {
  await service?.close();
  repository?.close();
});

const get = (path: string, token: string) => service.api('GET', path, { token });
const secretPath = (suffix = '') => `/api/k8s/secrets/creds${suffix}?namespace=${namespace.name}`;
const encoded = Buffer.from('hunter2-applied').toString('base64');

describe('viewers never see secret values', () => {
  it('masks Secret data and drops last-applied in JSON, YAML and describe', async () => {
    for (const suffix of ['', '/yaml', '/describe']) {
      const response = await get(secretPath(suffix), viewer.token);
      expect(response.status, suffix).toBe(200);
      expect(response.text, suffix).not.toContain('hunter2-applied');
      expect(response.text, suffix).not.toContain(encoded);
      // The value of last-applied repeats the password in plain text; managedFields only name its key.
      expect(response.text, suffix).not.toMatch(/last-applied-configuration["']?:\s*["']?\{\\?"/);
    }
    const object = (await get(secretPath(), viewer.token)).body;
    expect(object.data).toEqual({ password: '******' });
    expect(object.metadata.annotations?.[lastApplied]).toBeUndefined();
  });

  it('shows values to users but last-applied only to admins', async () => {
    const forUser = await get(secretPath(), user.token);
    expect(forUser.body.data).toEqual({ password: encoded });
    expect(forUser.body.metadata.annotations?.[lastApplied]).toBeUndefined();
    expect((await get(secretPath('/yaml'), user.token)).text).not.toContain('hunter2-applied');
    const forAdmin = await get(secretPath(), service.adminToken);
    expect(forAdmin.body.metadata.annotations[lastApplied]).toContain('hunter2-applied');
  });

  it('closes MCPServer objects (their env carries credentials) in Pilothouse’s namespace to all but admins', async () => {
    // Security review four, finding 3: the kinds that carry secret values are closed in the own namespace.
    const path = (suffix = '') => `/api/k8s/mcpservers/tokenized${suffix}?namespace=${service.namespace}`;
    for (const suffix of ['', '/yaml', '/describe']) {
      const response = await get(path(suffix), viewer.token);
      expect(response.status, suffix).toBe(403);
      expect(response.text, suffix).not.toContain('mcp-env-secret');
    }
    expect((await get(path('/describe'), service.adminToken)).text).toContain('mcp-env-secret');
  });

  it('masks Secret documents of helm release manifests', async () => {
    const path = `/api/helm/releases/vault/manifest?namespace=${namespace.name}`;
    const forViewer = await get(path, viewer.token);
    expect(forViewer.status).toBe(200);
    expect(forViewer.text).toContain('vault-credentials');
    expect(forViewer.text).not.toContain('helm-secret-value');
    expect((await get(path, user.token)).text).toContain('helm-secret-value');
    expect((await get(`/api/helm/releases/vault/values?namespace=${namespace.name}`, viewer.token)).status).toBe(403);
  });
});

describe('sensitive reads are audited (audit.include_reads: sensitive)', () => {
  function executeEntries(of: TestService, username: string): { command: string; decision: string; resource: string }[] {
    return of.deps.audit
      .query({ action: 'execute', user: username, limit: 500, offset: 0 })
      .items.map((entry) => ({ command: String(entry.details.command), decision: entry.decision, resource: entry.resource }));
  }

  it('records Secret get/yaml/describe, logs, helm values and manifests as execute with the command line', async () => {
    const reader = await service.createUser('user');
    await get(secretPath(), reader.token);
    await get(secretPath('/yaml'), reader.token);
    await get(secretPath('/describe'), reader.token);
    await get(`/api/k8s/configmaps/plain?namespace=${namespace.name}`, reader.token);
    expect((await get(`/api/pods/talker/logs?namespace=${namespace.name}&tail=5`, reader.token)).status).toBe(200);
    await get(`/api/helm/releases/vault/values?namespace=${namespace.name}`, reader.token);
    await get(`/api/helm/releases/vault/manifest?namespace=${namespace.name}`, reader.token);
    const entries = executeEntries(service, reader.username);
    const ns = namespace.name;
    expect(entries).toEqual(
      expect.arrayContaining([
        { command: `kubectl get secrets creds -n ${ns} -o json`, decision: 'allow', resource: 'secret/creds' },
        { command: `kubectl get secrets creds -n ${ns} -o yaml`, decision: 'allow', resource: 'secret/creds' },
        { command: `kubectl describe secrets creds -n ${ns}`, decision: 'allow', resource: 'secret/creds' },
        { command: `kubectl logs talker -n ${ns} --tail=5`, decision: 'allow', resource: 'pod/talker' },
        { command: `helm get values vault -n ${ns}`, decision: 'allow', resource: 'helmrelease/vault' },
        { command: `helm get manifest vault -n ${ns}`, decision: 'allow', resource: 'helmrelease/vault' },
      ]),
    );
    expect(entries.map((entry) => entry.command).join('\n')).not.toContain('configmaps plain');
  });

  it('records every object read with include_reads: all, and none with include_reads: none', async () => {
    const all = await startTestService({ config: { audit: { include_reads: 'all' } } });
    const none = await startTestService({ config: { audit: { include_reads: 'none' } } });
    try {
      await all.api('GET', `/api/k8s/configmaps/plain?namespace=${namespace.name}`, { token: all.adminToken });
      await none.api('GET', secretPath(), { token: none.adminToken });
      expect(executeEntries(all, 'admin').map((entry) => entry.command)).toContain(`kubectl get configmaps plain -n ${namespace.name} -o json`);
      expect(executeEntries(none, 'admin')).toEqual([]);
    } finally {
      await Promise.all([all.close(), none.close()]);
    }
  });
});
