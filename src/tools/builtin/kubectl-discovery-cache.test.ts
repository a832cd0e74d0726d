import { lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBinary } from '../binaries.js';
import type { ToolClusterSession, ToolContext } from '../types.js';
import { discoveryFolderName } from './kubectl-discovery-cache.js';
import { createKubectlTool } from './kubectl-tool.js';

// The real kubectl binary against loopback API servers that stand in for per-call policy proxies (a new port per
// call, as the proxy has) and record the paths kubectl asks for.
const resources = {
  kind: 'APIResourceList',
  groupVersion: 'v1',
  resources: [{ name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['get', 'list'] }],
};
const answers: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] },
  '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [] },
  '/api/v1': resources,
  '/api/v1/namespaces/a/configmaps': { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'one', namespace: 'a' } }] },
};

let folder: string;
const servers: Server[] = [];

/** One call's "proxy": a fresh port, a fresh session folder with its kubeconfig; returns the session and the paths it was asked. */
async function session(): Promise<{ cluster: ToolClusterSession; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    paths.push(pathname);
    const answer = answers[pathname];
    response.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(answer ?? { kind: 'Status', code: 404 }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const sessionFolder = await mkdtemp(path.join(folder, 'session-'));
  const kubeconfigPath = path.join(sessionFolder, 'kubeconfig');
  await writeFile(
    kubeconfigPath,
    `apiVersion: v1\nkind: Config\ncurrent-context: p\nclusters:\n- name: p\n  cluster:\n    server: http://127.0.0.1:${port}\ncontexts:\n- name: p\n  context:\n    cluster: p\n    user: p\nusers:\n- name: p\n  user:\n    token: t\n`,
  );
  return { cluster: { kubeconfigPath, socket: { path: '', port }, refusals: () => [], close: async () => undefined }, paths };
}

const context = (cluster: ToolClusterSession): ToolContext => ({ principal: { username: 'tester', role: 'admin', roles: [] }, cluster });
const discoveryPaths = (paths: string[]): string[] => paths.filter((pathname) => pathname === '/api' || pathname === '/apis' || pathname === '/api/v1');

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pilothouse-discovery-test-'));
});
afterAll(async () => {
  for (const server of servers) server.close();
  await rm(folder, { recursive: true, force: true });
});

describe('kubectl discovery cache shared across calls', () => {
  it('names the folder as kubectl does', () => {
    expect(discoveryFolderName('127.0.0.1:6443')).toBe('127.0.0.1_6443');
  });

  it('asks the API for discovery once, not on every call; the shared copy is read-only', async () => {
    const tool = createKubectlTool({ kubectlPath: findBinary('kubectl'), outputLimit: 64 * 1024, timeoutMs: 20_000 });
    const first = await session();
    const firstResult = await tool.run({ command: 'get configmaps -n a -o name' }, context(first.cluster));
    expect(firstResult.output.trim()).toBe('configmap/one');

    const second = await session();
    const secondResult = await tool.run({ command: 'get configmaps -n a -o name' }, context(second.cluster));
    expect(secondResult.output.trim()).toBe('configmap/one');
    expect(second.paths).toEqual(['/api/v1/namespaces/a/configmaps']);
    // The call's own cache folder only links to the shared copy, which is read-only.
    const link = path.join(path.dirname(second.cluster.kubeconfigPath), 'cache', 'discovery', `127.0.0.1_${second.cluster.socket.port}`);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    const shared = await lstat(path.join(link, 'servergroups.json'));
    expect(shared.mode & 0o222).toBe(0);

    // A kind the cached discovery does not know makes kubectl ask the server again; the shared copy stays as it was.
    const before = await readdir(path.join(link, 'v1'));
    const third = await session();
    const unknown = await tool.run({ command: 'get widgets -n a' }, context(third.cluster));
    expect(unknown.output).toContain('the server doesn\'t have a resource type "widgets"');
    expect(discoveryPaths(third.paths).length).toBeGreaterThan(0);
    expect(await readdir(path.join(link, 'v1'))).toEqual(before);
    const fourth = await session();
    await tool.run({ command: 'get configmaps -n a -o name' }, context(fourth.cluster));
    expect(fourth.paths).toEqual(['/api/v1/namespaces/a/configmaps']);
  });
});
