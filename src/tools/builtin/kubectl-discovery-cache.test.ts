import { mkdtempSync } from 'node:fs';
import { lstat, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBinary } from '../binaries.js';
import type { ToolClusterSession, ToolContext } from '../types.js';
import { discoveryFolderName, SharedDiscoveryCache } from './kubectl-discovery-cache.js';
import { createKubectlTool } from './kubectl-tool.js';

// The real kubectl binary against loopback API servers that stand in for per-call policy proxies (a new port per
// call, as the proxy has) and record the paths kubectl asks for. Each "cluster" has its own SharedDiscoveryCache,
// as each cluster scope's gateway has.
const configMaps = { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['get', 'list'], shortNames: ['cm'] };
const honestResources = { kind: 'APIResourceList', groupVersion: 'v1', resources: [configMaps] };
/** A cluster whose discovery lies: its short name `cm` stands for secrets. */
const lyingResources = {
  kind: 'APIResourceList',
  groupVersion: 'v1',
  resources: [
    { ...configMaps, shortNames: [] },
    { name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs: ['get', 'list', 'delete'], shortNames: ['cm'] },
  ],
};
const discoveryAnswers = (resources: unknown): Record<string, unknown> => ({
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] },
  '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [] },
  '/api/v1': resources,
  '/api/v1/namespaces/a/configmaps': { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'one', namespace: 'a' } }] },
  '/api/v1/namespaces/a/secrets': { kind: 'SecretList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'hidden', namespace: 'a' } }] },
});
const answers = discoveryAnswers(honestResources);

let folder: string;
const servers: Server[] = [];
const caches: SharedDiscoveryCache[] = [];
/** One cluster's cache, its copies in a folder of its own (`parent`), as each cluster scope's gateway has. */
const clusterCache = (): { cache: SharedDiscoveryCache; parent: string } => {
  const parent = mkdtempSync(path.join(folder, 'cluster-'));
  const cache = new SharedDiscoveryCache({ kubectlPath: findBinary('kubectl'), folderParent: parent });
  caches.push(cache);
  return { cache, parent };
};
const newTool = (): ReturnType<typeof createKubectlTool> =>
  createKubectlTool({ kubectlPath: findBinary('kubectl'), outputLimit: 64 * 1024, timeoutMs: 20_000 });

/**
 * One call's "proxy" on the cluster of `cache` (its answers `served`): a fresh port, a fresh session folder with its
 * kubeconfig, the cluster's discovery cache bound to it as the gateway binds it; returns the session and the paths it was asked.
 */
async function session(cache: SharedDiscoveryCache, served = answers): Promise<{ cluster: ToolClusterSession; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    paths.push(pathname);
    const answer = served[pathname];
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
  const target = { kubeconfigPath, socket: { path: '', port } };
  const discovery = { prepare: (cacheDir: string) => cache.prepare(target, cacheDir), settle: () => cache.settle() };
  return { cluster: { ...target, refusals: () => [], discovery, close: async () => undefined }, paths };
}

const context = (cluster: ToolClusterSession): ToolContext => ({ principal: { username: 'tester', role: 'admin', roles: [] }, proxySession: cluster });
const discoveryPaths = (paths: string[]): string[] => paths.filter((pathname) => pathname === '/api' || pathname === '/apis' || pathname === '/api/v1');

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pilothouse-discovery-test-'));
});
afterAll(async () => {
  for (const server of servers) server.close();
  for (const cache of caches) cache.close();
  await rm(folder, { recursive: true, force: true });
});

describe('kubectl discovery cache shared across the calls of one cluster', () => {
  it('names the folder as kubectl does', () => {
    expect(discoveryFolderName('127.0.0.1:6443')).toBe('127.0.0.1_6443');
  });

  it('asks the API for discovery once, not on every call; the shared copy is read-only', async () => {
    const tool = newTool();
    const { cache } = clusterCache();
    const first = await session(cache);
    const firstResult = await tool.run({ command: 'get configmaps -n a -o name' }, context(first.cluster));
    expect(firstResult.output.trim()).toBe('configmap/one');

    const second = await session(cache);
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
    const third = await session(cache);
    const unknown = await tool.run({ command: 'get widgets -n a' }, context(third.cluster));
    expect(unknown.output).toContain('the server doesn\'t have a resource type "widgets"');
    expect(discoveryPaths(third.paths).length).toBeGreaterThan(0);
    expect(await readdir(path.join(link, 'v1'))).toEqual(before);
    const fourth = await session(cache);
    await tool.run({ command: 'get configmaps -n a -o name' }, context(fourth.cluster));
    expect(fourth.paths).toEqual(['/api/v1/namespaces/a/configmaps']);
  });

  it('never resolves a kind on one cluster with the discovery of another (a lying cluster’s `cm` → secrets)', async () => {
    // One tool, as the service has; each cluster its own cache, as each cluster scope's gateway has.
    const tool = newTool();
    const home = clusterCache();
    const liar = clusterCache();
    const onLiar = await session(liar.cache, discoveryAnswers(lyingResources));
    const lied = await tool.run({ command: 'get cm -n a -o name' }, context(onLiar.cluster));
    expect(lied.output.trim()).toBe('secret/hidden');

    const onHome = await session(home.cache);
    const result = await tool.run({ command: 'get cm -n a -o name' }, context(onHome.cluster));
    expect(result.output.trim()).toBe('configmap/one');
    expect(onHome.paths).toContain('/api/v1/namespaces/a/configmaps');
    expect(onHome.paths).not.toContain('/api/v1/namespaces/a/secrets');
    // Warm now: the next home call asks no discovery, and its cache folder links into the home cluster's copies only.
    const again = await session(home.cache);
    expect((await tool.run({ command: 'get cm -n a -o name' }, context(again.cluster))).output.trim()).toBe('configmap/one');
    expect(again.paths).toEqual(['/api/v1/namespaces/a/configmaps']);
    const link = path.join(path.dirname(again.cluster.kubeconfigPath), 'cache', 'discovery', `127.0.0.1_${again.cluster.socket.port}`);
    expect(await realpath(link)).toMatch(new RegExp(`^${home.parent}/`));
    expect(await readdir(liar.parent)).toHaveLength(1);
  });

  it('removes a cluster’s copies when its cache closes (the cluster goes)', async () => {
    const parent = await mkdtemp(path.join(folder, 'closing-'));
    const cache = new SharedDiscoveryCache({ kubectlPath: findBinary('kubectl'), folderParent: parent });
    await newTool().run({ command: 'get configmaps -n a -o name' }, context((await session(cache)).cluster));
    expect(await readdir(parent)).toHaveLength(1);
    cache.close();
    expect(await readdir(parent)).toEqual([]);
  });
});
