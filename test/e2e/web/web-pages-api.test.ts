import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer } from '../../../src/mcp/client/test-servers.js';
import { serveDemoChartRepository, type ChartRepository } from '../../helpers/chart-repository.js';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// The routes the stage-two web pages added: kinds and version of the cluster, the LLM connection test,
// editing an MCP server, Helm values as YAML text, nodes' allocatable beside their usage.
const namespace = useNamespace('webapi');
let service: TestService;
let wire: LlmWireServer;
let charts: ChartRepository;
let viewerToken = '';

const admin = (body?: unknown): { token: string; body?: unknown } => ({ token: service.adminToken, body });

beforeAll(async () => {
  wire = await startLlmWireServer();
  charts = await serveDemoChartRepository();
  const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-api-test', max_retries: 0 };
  service = await startTestService({ config: { llm: llm as never, helm: { allow_http: true, allow_private_urls: true } as never } });
  viewerToken = (await service.createUser('viewer')).token;
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
  charts?.close();
});

describe('cluster kinds and version', () => {
  it('lists the kinds the cluster serves with their short names, for every role', async () => {
    const response = await service.api('GET', '/api/k8s', { token: viewerToken });
    expect(response.status).toBe(200);
    const pods = response.body.items.find((item: { plural: string; group: string }) => item.plural === 'pods' && item.group === '');
    expect(pods).toMatchObject({ kind: 'Pod', singular: 'pod', version: 'v1', namespaced: true, shortNames: ['po'] });
    expect(response.body.items.some((item: { kind: string; group: string }) => item.kind === 'Deployment' && item.group === 'apps')).toBe(true);
    expect((await service.api('GET', '/api/k8s')).status).toBe(401);
  });

  it('answers the API server version', async () => {
    const response = await service.api('GET', '/api/cluster/version', { token: viewerToken });
    expect(response.status).toBe(200);
    expect(response.body.gitVersion).toMatch(/^v1\.\d+\.\d+/);
    expect(response.body.major).toBe('1');
  });

  it('gives each node its allocatable CPU and memory beside the usage', async () => {
    const response = await service.api('GET', '/api/metrics/node', admin());
    const node = response.body.items.find((item: { name: string }) => item.name === 'kwok-node-0');
    expect(node).toMatchObject({ allocatableCpu: expect.stringMatching(/^\d+/), allocatableMemory: expect.stringMatching(/^\d+/) });
  });
});

describe('LLM connection test', () => {
  it('answers with the model’s reply, or the provider’s error as a result; admins only; audited', async () => {
    wire.script([{ text: ['O', 'K'] }]);
    const ok = await service.api('POST', '/api/llm/test', admin());
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, provider: 'openai', model: 'wire-model', answer: 'OK' });
    expect(JSON.stringify(wire.requests.at(-1)?.body ?? null)).toContain('Reply with the single word OK.');

    wire.script([{ error: { status: 401, message: 'invalid api key for the test' } }]);
    const failed = await service.api('POST', '/api/llm/test', admin());
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ ok: false, provider: 'openai', model: 'wire-model', code: 'LLM_ERROR' });
    expect(failed.body.error).toEqual(expect.any(String));
    expect(JSON.stringify(failed.body)).not.toContain('sk-api-test');

    expect((await service.api('POST', '/api/llm/test', { token: viewerToken })).status).toBe(403);
    const audit = await service.api('GET', '/api/audit?limit=200', admin());
    const commands = audit.body.items.map((entry: { details: { command?: string } }) => entry.details.command);
    expect(commands).toContain('settings llm test provider=openai model=wire-model');
  });
});

describe('editing an MCP server', () => {
  it('replaces the configuration, keeps env values sent back masked, reconnects; 404 unknown, 403 viewer', async () => {
    const server = everythingServer('edit-me');
    const created = await service.api(
      'POST',
      '/api/mcp/servers',
      admin({ name: server.name, command: server.command, args: server.args, env: { TOKEN: 'kept-secret' } }),
    );
    expect(created.status).toBe(201);
    const edited = await service.api(
      'PUT',
      `/api/mcp/servers/${server.name}`,
      admin({ command: server.command, args: server.args, description: 'edited', env: { TOKEN: '********', EXTRA: 'new' } }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: server.name, description: 'edited', env: { TOKEN: '********', EXTRA: '********' } });
    expect(service.deps.mcp.manager.get(server.name)?.definition.env).toEqual({ TOKEN: 'kept-secret', EXTRA: 'new' });
    const object = JSON.parse(await runKubectl(clusterKubeconfig(), ['get', 'mcpservers.pilothouse.dev', server.name, '-n', service.namespace, '-o', 'json']));
    expect(object.spec).toMatchObject({ description: 'edited', env: { TOKEN: 'kept-secret', EXTRA: 'new' } });

    const dropped = await service.api('PUT', `/api/mcp/servers/${server.name}`, admin({ command: server.command, args: server.args, env: {} }));
    expect(dropped.body.env).toEqual({});
    expect(service.deps.mcp.manager.get(server.name)?.definition.env).toEqual({});

    expect((await service.api('PUT', '/api/mcp/servers/no-such-server', admin({ command: 'node', args: [] }))).status).toBe(404);
    expect((await service.api('PUT', `/api/mcp/servers/${server.name}`, { token: viewerToken, body: { command: 'node', args: [] } })).status).toBe(403);
    expect((await service.api('PUT', `/api/mcp/servers/${server.name}`, admin({ name: 'renamed', command: 'node' }))).status).toBe(400);
    await service.api('DELETE', `/api/mcp/servers/${server.name}`, admin());
  }, 60_000);
});

describe('Helm values as YAML', () => {
  it('installs with valuesYaml and names a YAML mistake', async () => {
    const install = (valuesYaml: string): Promise<{ status: number; body: { code?: string; error?: string } }> =>
      service.api('POST', '/api/helm/install', admin({ name: 'yamlvalues', namespace: namespace.name, chart: 'demo', repo: charts.url, valuesYaml }));
    const bad = await install('greeting: [unclosed\n');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error).toContain('values are not valid YAML');
    expect((await install('- a list\n- not a mapping\n')).status).toBe(400);
    const good = await install('greeting: from YAML text\n');
    expect(good.status).toBe(201);
    const greeting = await runKubectl(clusterKubeconfig(), [
      'get',
      'configmap',
      'yamlvalues-settings',
      '-n',
      namespace.name,
      '-o',
      'jsonpath={.data.greeting}',
    ]);
    expect(greeting).toBe('from YAML text');
  }, 120_000);
});
