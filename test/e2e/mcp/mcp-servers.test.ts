import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashServer, everythingServer, kubernetesMcpServerPath } from '../../../src/mcp/client/test-servers.js';
import { McpConnection } from '../../../src/mcp/client/connection.js';
import { errorResult } from '../../../src/mcp/client/tool-result.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService;
const elsewhere = useNamespace('mcp-elsewhere');

/** A server as GET /api/mcp/servers shows it. */
interface ShownServer {
  name: string;
  source: string;
  enabled: boolean;
  env: Record<string, string>;
  tools: string[];
  status: { phase: string; message?: string; restarts: number };
}

/** The status subresource of an MCPServer object. */
interface WrittenStatus {
  phase?: string;
  tools?: string[];
  message?: string;
  lastConnected?: string;
  restarts?: number;
}

/** The admin's bearer token once the service has authentication (none under --no-auth). */
function admin(): { token?: string } {
  return { token: (service as TestService & { adminToken?: string }).adminToken };
}

async function serverRecord(name: string): Promise<ShownServer | undefined> {
  const response = await service.api('GET', '/api/mcp/servers', admin());
  expect(response.status).toBe(200);
  return (response.body as { items: ShownServer[] }).items.find((item) => item.name === name);
}

async function waitForPhase(name: string, phase: string): Promise<ShownServer | undefined> {
  let found: ShownServer | undefined;
  await waitFor(async () => (found = await serverRecord(name))?.status.phase === phase);
  return found;
}

async function objectStatus(name: string): Promise<WrittenStatus> {
  const text = await runKubectl(clusterKubeconfig(), ['get', 'mcpservers.pilothouse.dev', name, '-n', service.namespace, '-o', 'json']);
  return (JSON.parse(text) as { status?: WrittenStatus }).status ?? {};
}

function body(definition: ReturnType<typeof everythingServer>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(definition).filter(([key]) => key !== 'source'));
}

beforeAll(async () => {
  const fromConfig = everythingServer('from-config');
  service = await startTestService({ config: { mcp: { servers: [body(fromConfig) as never] } } });
  // A freshly (re)installed CRD answers 429 "storage is (re)initializing" for a moment.
  await waitFor(async () => (await service.api('GET', '/api/mcp/servers', admin())).status === 200);
});

afterAll(async () => {
  await service?.close();
});

/** Tool names without the `<server>__` prefix a server gets when another server registered the same name first. */
const bareNames = (tools: string[] | undefined, server: string): string[] => (tools ?? []).map((name) => name.replace(`${server}__`, ''));

describe('MCP servers API', () => {
  it('adds a server as an MCPServer object, connects it, lists its tools and masks env values', async () => {
    const created = await service.api('POST', '/api/mcp/servers', {
      ...admin(),
      body: body(everythingServer('everything', { env: { API_TOKEN: 'secret-value' } })),
    });
    expect(created.status).toBe(201);
    const record = await waitForPhase('everything', 'connected');
    expect(record).toMatchObject({ source: 'cluster', enabled: true, env: { API_TOKEN: '********' } });
    expect(bareNames(record?.tools, 'everything')).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(JSON.stringify(record)).not.toContain('secret-value');
    await waitFor(async () => (await objectStatus('everything')).phase === 'connected');
    const status = await objectStatus('everything');
    expect(status.tools).toEqual(expect.arrayContaining(['everything__echo']));
    expect(status.lastConnected).toMatch(/Z$/);
    const call = await service.deps.mcp.manager.call('everything__get-env', {});
    expect(call.output).toContain('secret-value');
  });

  it('lists config-file servers with their source', async () => {
    const record = await waitForPhase('from-config', 'connected');
    expect(record?.source).toBe('config');
    expect(bareNames(record?.tools, 'from-config')).toEqual(expect.arrayContaining(['echo', 'get-sum']));
  });

  it('rejects a duplicate name and an invalid body with 400', async () => {
    const duplicate = await service.api('POST', '/api/mcp/servers', { ...admin(), body: body(everythingServer('from-config')) });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.code).toBe('VALIDATION_ERROR');
    const invalid = await service.api('POST', '/api/mcp/servers', { ...admin(), body: { name: 'Bad Name', command: '' } });
    expect(invalid.status).toBe(400);
  });

  it('disables and enables a server with PATCH, withdrawing and restoring its tools', async () => {
    await service.api('POST', '/api/mcp/servers', { ...admin(), body: body(everythingServer('toggle')) });
    await waitForPhase('toggle', 'connected');
    const disabled = await service.api('PATCH', '/api/mcp/servers/toggle', { ...admin(), body: { enabled: false } });
    expect(disabled.status).toBe(200);
    expect(disabled.body.status.phase).toBe('disabled');
    expect(service.deps.tools.get('toggle__echo')).toBeUndefined();
    await waitFor(async () => (await objectStatus('toggle')).phase === 'disabled');
    const enabled = await service.api('PATCH', '/api/mcp/servers/toggle', { ...admin(), body: { enabled: true } });
    expect(enabled.body.enabled).toBe(true);
    await waitForPhase('toggle', 'connected');
    expect(service.deps.tools.get('toggle__echo')).toBeDefined();
  });

  it('deletes a server: object gone, child stopped, tools withdrawn; unknown names give 404', async () => {
    await service.api('POST', '/api/mcp/servers', { ...admin(), body: body(everythingServer('doomed')) });
    await waitForPhase('doomed', 'connected');
    const deleted = await service.api('DELETE', '/api/mcp/servers/doomed', admin());
    expect(deleted.status).toBe(200);
    expect(await serverRecord('doomed')).toBeUndefined();
    expect(service.deps.tools.get('doomed__echo')).toBeUndefined();
    expect(service.deps.mcp.manager.get('doomed')).toBeUndefined();
    expect((await service.api('DELETE', '/api/mcp/servers/doomed', admin())).status).toBe(404);
    expect((await service.api('PATCH', '/api/mcp/servers/nothing', { ...admin(), body: { enabled: true } })).status).toBe(404);
  });

  it('audits every change as execute with the command', async () => {
    const entries = service.deps.audit.query({ limit: 100, offset: 0, action: 'execute' }).items;
    const commands = entries.map((entry) => entry.details.command);
    expect(commands).toEqual(
      expect.arrayContaining([expect.stringMatching(/^mcp add toggle -- /), 'mcp disable toggle', 'mcp enable toggle', 'mcp delete doomed']),
    );
    expect(entries.find((entry) => entry.details.command === 'mcp delete doomed')).toMatchObject({ resource: 'mcpserver/doomed', decision: 'allow' });
  });

  it('restarts a crashed server with backoff and writes restarts to the status', async () => {
    await service.api('POST', '/api/mcp/servers', { ...admin(), body: body(crashServer('crashy')) });
    await waitForPhase('crashy', 'connected');
    const messages: string[] = [];
    service.deps.mcp.manager.onStatusChange(() => messages.push(service.deps.mcp.manager.get('crashy')?.status.message ?? ''));
    await service.deps.mcp.manager.call('crash', {});
    await waitFor(async () => {
      const status = await objectStatus('crashy');
      return (status.restarts ?? 0) >= 1 && status.phase === 'connected';
    });
    expect(messages).toContainEqual(expect.stringMatching(/server exited; stderr: [\s\S]*crashing on request[\s\S]*restarting in 1s/));
  });
});

describe('MCPServer objects applied with kubectl', () => {
  it('connects kubernetes-mcp-server against the test cluster and writes its status', async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: pilothouse.dev/v1alpha1
kind: MCPServer
metadata: {name: kube}
spec:
  command: ${kubernetesMcpServerPath}
  args: [--kubeconfig, ${clusterKubeconfig()}, --read-only]
  description: kubernetes-mcp-server from npm
`,
      service.namespace,
    );
    await waitFor(async () => (await objectStatus('kube')).phase === 'connected', 30_000);
    const status = await objectStatus('kube');
    expect(status.tools).toEqual(expect.arrayContaining(['namespaces_list', 'pods_list']));
    const namespaces = await service.deps.mcp.manager.call('namespaces_list', {});
    expect(namespaces).toMatchObject({ isError: false, output: expect.stringContaining(service.namespace) });
  });

  it('returns tool failures of kubernetes-mcp-server as isError results', async () => {
    const result = await service.deps.mcp.manager.call('pods_get', { name: 42 });
    expect(result).toMatchObject({ isError: true, output: expect.stringContaining('name parameter must be a string') });
  });

  it('turns its JSON-RPC -32602 answer to an unknown tool into an isError result', async () => {
    const definition = {
      name: 'kube-direct',
      command: kubernetesMcpServerPath,
      args: ['--kubeconfig', clusterKubeconfig()],
      enabled: true,
      env: {},
      source: 'cluster' as const,
    };
    const connection = await McpConnection.open(
      definition,
      { clientVersion: 'test', initializeTimeoutMs: 10_000 },
      { toolsChanged: () => undefined, closed: () => undefined },
    );
    try {
      const error = await connection.callTool('no_such_tool', {}, { timeoutMs: 5_000 }).then(
        () => undefined,
        (rejection: unknown) => rejection,
      );
      expect(error).toMatchObject({ code: -32602 });
      expect(errorResult('kube-direct', 'no_such_tool', error)).toMatchObject({
        isError: true,
        output: expect.stringMatching(/kube-direct[\s\S]*no_such_tool/),
      });
    } finally {
      await connection.close();
    }
  });

  it('reports a kubernetes-mcp-server without a kubeconfig as failed with its stderr', async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: pilothouse.dev/v1alpha1
kind: MCPServer
metadata: {name: kube-broken}
spec:
  command: ${kubernetesMcpServerPath}
  args: [--kubeconfig, /nonexistent/kubeconfig]
`,
      service.namespace,
    );
    await waitFor(async () => (await objectStatus('kube-broken')).phase === 'failed');
    expect((await objectStatus('kube-broken')).message).toContain('failed to load kubeconfig');
  });

  it('reports a name clash with a config-file server in the status instead of merging', async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: pilothouse.dev/v1alpha1
kind: MCPServer
metadata: {name: from-config}
spec: {command: npx, enabled: false}
`,
      service.namespace,
    );
    await waitFor(async () => (await objectStatus('from-config')).phase === 'failed');
    expect((await objectStatus('from-config')).message).toMatch(/clashes/);
    expect(service.deps.mcp.manager.get('from-config')?.definition.source).toBe('config');
  });

  it('runs only allow-listed commands: others fail with the reason and never start', async () => {
    const marker = join(tmpdir(), `pilothouse-mcp-pwned-${process.pid}-${Date.now()}`);
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: pilothouse.dev/v1alpha1
kind: MCPServer
metadata: {name: shell}
spec: {command: /bin/sh, args: [-c, "touch ${marker}"]}
---
apiVersion: pilothouse.dev/v1alpha1
kind: MCPServer
metadata: {name: bare}
spec: {command: bash, args: [-c, "touch ${marker}"]}
---
apiVersion: pilothouse.dev/v1alpha1
kind: MCPServer
metadata: {name: escape}
spec: {command: ${dirname(process.execPath)}/../../../../../../../bin/sh, args: [-c, "touch ${marker}"]}
`,
      service.namespace,
    );
    for (const name of ['shell', 'bare', 'escape']) await waitFor(async () => (await objectStatus(name)).phase === 'failed');
    expect((await objectStatus('shell')).message).toContain('mcp.allowed_command_dirs');
    expect((await objectStatus('escape')).message).toContain('mcp.allowed_command_dirs');
    expect((await objectStatus('bare')).message).toContain('mcp.allowed_commands');
    expect(existsSync(marker)).toBe(false);
    expect(service.deps.mcp.manager.get('shell')).toBeUndefined();
  });

  it('reads MCPServer objects only from its own namespace', async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: pilothouse.dev/v1alpha1\nkind: MCPServer\nmetadata: {name: stranger}\nspec: {command: ${process.execPath}, args: [--version]}\n`,
      elsewhere.name,
    );
    // A marker created after the stranger, in its own namespace, gets its status: the controller has reconciled past it.
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: pilothouse.dev/v1alpha1\nkind: MCPServer\nmetadata: {name: after-stranger}\nspec: {command: ${process.execPath}, args: [--version], enabled: false}\n`,
      service.namespace,
    );
    await waitFor(async () => (await objectStatus('after-stranger')).phase === 'disabled');
    await runKubectl(clusterKubeconfig(), ['delete', 'mcpservers.pilothouse.dev', 'after-stranger', '-n', service.namespace]);
    const status = await runKubectl(clusterKubeconfig(), ['get', 'mcpservers.pilothouse.dev', 'stranger', '-n', elsewhere.name, '-o', 'jsonpath={.status}']);
    expect(status).toBe('');
    expect(service.deps.mcp.manager.get('stranger')).toBeUndefined();
    const listed = await service.api('GET', '/api/mcp/servers', admin());
    expect(listed.body.items.map((item: { name: string }) => item.name)).not.toContain('stranger');
  });

  it('disconnects a server whose object is deleted with kubectl', async () => {
    await runKubectl(clusterKubeconfig(), ['delete', 'mcpservers.pilothouse.dev', 'kube', '-n', service.namespace]);
    await waitFor(() => service.deps.mcp.manager.get('kube') === undefined);
    expect(service.deps.tools.get('namespaces_list')).toBeUndefined();
  });
});
