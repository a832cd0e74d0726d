import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { everythingServer } from '../../../src/mcp/client/test-servers.js';
import { waitFor } from '../../helpers/cluster.js';
import { tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { startCluster, type TestCluster } from '../../helpers/test-cluster.js';

// The desktop user's cluster: our CRDs are not installed (and may not be), so MCP server changes
// made through the API must land in the per-user config file instead of MCPServer objects. The
// shared test cluster always has the CRDs, so this file starts a second, CRD-free cluster.

/** A server as GET /api/mcp/servers shows it. */
interface ShownServer {
  name: string;
  source: string;
  enabled: boolean;
  env: Record<string, string>;
  tools: string[];
  status: { phase: string; message?: string };
}

let cluster: TestCluster;
let clusterDirectory: string;
let folder: string;
let configPath: string;
let dataDir: string;
let service: TestService | undefined;

const start = (): Promise<TestService> => startTestService({ kubeconfig: cluster.kubeconfig, configPath, dataDir });
const crdInstalled = async (): Promise<boolean> => (await tryKubectl(cluster.kubeconfig, ['get', 'crd', 'mcpservers.pilothouse.dev'])).code === 0;
const serversInFile = (): { name: string; enabled: boolean; command: string; args: string[]; env: Record<string, string> }[] =>
  loadConfig(configPath).mcp.servers;

function body(name: string, env: Record<string, string> = {}): Record<string, unknown> {
  return Object.fromEntries(Object.entries(everythingServer(name, { env })).filter(([key]) => key !== 'source'));
}

async function serverRecord(running: TestService, name: string): Promise<ShownServer | undefined> {
  const response = await running.api('GET', '/api/mcp/servers', { token: running.adminToken });
  expect(response.status).toBe(200);
  return (response.body as { items: ShownServer[] }).items.find((item) => item.name === name);
}

async function waitForPhase(running: TestService, name: string, phase: string): Promise<ShownServer | undefined> {
  let found: ShownServer | undefined;
  await waitFor(async () => (found = await serverRecord(running, name))?.status.phase === phase);
  return found;
}

beforeAll(async () => {
  clusterDirectory = mkdtempSync(join(tmpdir(), 'pilothouse-nocrd-cluster-'));
  cluster = await startCluster(clusterDirectory, 1);
  folder = mkdtempSync(join(tmpdir(), 'pilothouse-nocrd-'));
  dataDir = join(folder, 'data');
  configPath = join(folder, 'config.yaml');
  // The desktop user's own file: it keeps Pilothouse from installing the CRDs.
  writeFileSync(configPath, 'kubernetes:\n  install_crds: false\n', { mode: 0o644 });
  service = await start();
});

afterAll(async () => {
  await service?.close();
  await cluster?.stop();
  if (cluster) expect(cluster.child.exitCode !== null || cluster.child.signalCode !== null).toBe(true);
  rmSync(clusterDirectory, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

describe('MCP servers API on a cluster without the Pilothouse CRDs', () => {
  it('runs against a cluster that lacks the MCPServer CRD and does not install it', async () => {
    expect(await crdInstalled()).toBe(false);
    expect(await serverRecord(service!, 'desk')).toBeUndefined();
  });

  it('adds a server as an entry of the config file (mode 0600) and connects it', async () => {
    const created = await service!.api('POST', '/api/mcp/servers', { token: service!.adminToken, body: body('desk', { API_TOKEN: 'desk-secret' }) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'desk', source: 'config', enabled: true, env: { API_TOKEN: '********' } });
    expect(serversInFile()).toEqual([{ ...body('desk', { API_TOKEN: 'desk-secret' }) }]);
    expect(loadConfig(configPath).kubernetes.install_crds).toBe(false);
    expect(statSync(configPath).mode & 0o777).toBe(0o600);
    const record = await waitForPhase(service!, 'desk', 'connected');
    expect(record?.tools).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(await service!.deps.mcp.manager.call('echo', { message: 'from the desk' })).toMatchObject({
      isError: false,
      output: expect.stringContaining('Echo: from the desk'),
    });
    expect(await crdInstalled()).toBe(false);
  });

  it('disables it with PATCH: the file says enabled false and it disconnects', async () => {
    const disabled = await service!.api('PATCH', '/api/mcp/servers/desk', { token: service!.adminToken, body: { enabled: false } });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ enabled: false, source: 'config', status: { phase: 'disabled', tools: [] } });
    expect(serversInFile()).toEqual([expect.objectContaining({ name: 'desk', enabled: false })]);
    expect(service!.deps.tools.get('echo')).toBeUndefined();
    expect(await serverRecord(service!, 'desk')).toMatchObject({ enabled: false, tools: [], status: { phase: 'disabled' } });
  });

  it('deletes it: gone from the file, the list and the registry', async () => {
    const deleted = await service!.api('DELETE', '/api/mcp/servers/desk', { token: service!.adminToken });
    expect(deleted.status).toBe(200);
    expect(serversInFile()).toEqual([]);
    expect(await serverRecord(service!, 'desk')).toBeUndefined();
    expect(service!.deps.mcp.manager.get('desk')).toBeUndefined();
    expect((await service!.api('DELETE', '/api/mcp/servers/desk', { token: service!.adminToken })).status).toBe(404);
  });

  it('brings a server added through the API back after a restart on the same config file', async () => {
    const created = await service!.api('POST', '/api/mcp/servers', { token: service!.adminToken, body: body('keeper') });
    expect(created.status).toBe(201);
    await waitForPhase(service!, 'keeper', 'connected');
    await service!.close();
    service = undefined;

    service = await start();
    const record = await waitForPhase(service, 'keeper', 'connected');
    expect(record).toMatchObject({ source: 'config', enabled: true });
    expect(record?.tools).toEqual(expect.arrayContaining(['echo']));
    // The restarted service still writes to the file: a delete removes the entry it was started from.
    expect((await service.api('DELETE', '/api/mcp/servers/keeper', { token: service.adminToken })).status).toBe(200);
    expect(serversInFile()).toEqual([]);
    expect(await crdInstalled()).toBe(false);
  });
});
