import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/rbac/principal.js';
import { loopbackCertificate } from '../../../src/tools/policy-proxy/loopback-certificate.js';
import type { ToolMode, ToolResult } from '../../../src/tools/types.js';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { useSecondCluster } from '../../helpers/second-cluster.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { connectStdio, serverModeFiles, type ServerModeFiles } from '../mcp/mcp-server-process.js';

// Security review four, finding 1: kubectl's warm discovery cache is one per cluster scope. A kubectl call on one
// cluster never resolves kinds, short names or paths with another cluster's discovery, however recently a call
// there warmed it: a CRD only cluster b has stays unknown to kubectl on home, and a registered cluster whose
// discovery lies (short name `cm` → secrets) cannot turn an approved `kubectl delete cm victim` on home into the
// deletion of the Secret `victim`. Each describe block starts its own service, so the first kubectl call of the
// service is the one on the other cluster (before the fix, that call built the copy every cluster then used).
const home = useNamespace('discovery-home');
const second = useSecondCluster(1);
const scratch = mkdtempSync(join(tmpdir(), 'pilothouse-discovery-clusters-'));
const admin: Principal = { username: 'discovery-admin', role: 'admin', roles: [] };
const user: Principal = { username: 'discovery-user', role: 'user', roles: [] };

/** One kubectl tool call through the service's gateway on `clusterName` (absent: home), as the agent's tool step runs it. */
async function kubectlOn(service: TestService, command: string, options: { clusterName?: string; principal: Principal; mode: ToolMode }): Promise<ToolResult> {
  const kubectl = service.deps.tools.get('kubectl');
  if (!kubectl) throw new Error('the kubectl tool is missing');
  const session = await service.deps.proxyGateway.open({ principal: options.principal, mode: options.mode, clusterName: options.clusterName });
  try {
    return await kubectl.run({ command }, { principal: options.principal, mode: options.mode, proxySession: session });
  } finally {
    await session.close();
  }
}

async function waitReachable(service: TestService, count: number): Promise<void> {
  await waitFor(async () => {
    const listed = await service.api<{ items: { reachable: boolean }[] }>('GET', '/api/clusters', { token: service.adminToken });
    return listed.status === 200 && listed.body.items.length === count && listed.body.items.every((cluster) => cluster.reachable);
  }, 60_000);
}

/** A CRD of cluster b only (short name `gzm`). */
const group = `${uniqueName('discovery')}.example.com`;
const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.${group}}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo, shortNames: [gzm]}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]`;

beforeAll(async () => {
  await applyYaml(second.current.kubeconfig, crd);
  await runKubectl(second.current.kubeconfig, ['wait', '--for=condition=Established', '--timeout=60s', `crd/gizmos.${group}`]);
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a CRD only another cluster has', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({
      config: { cluster: { name: 'home', secrets: false }, clusters: [{ name: 'b', kubeconfig: second.current.kubeconfig }] } as never,
    });
    await waitReachable(service, 2);
  }, 240_000);
  afterAll(async () => {
    await service?.close();
  });

  it('is unknown to kubectl on home after a kubectl call on b resolved it', async () => {
    const onB = await kubectlOn(service, 'get gzm -A', { clusterName: 'b', principal: user, mode: 'read' });
    expect(onB).toMatchObject({ isError: false, output: expect.stringContaining('No resources found') });
    const onHome = await kubectlOn(service, 'get gzm -A', { principal: user, mode: 'read' });
    expect(onHome).toMatchObject({ isError: true, output: expect.stringContaining('the server doesn\'t have a resource type "gzm"') });
    const qualified = await kubectlOn(service, `get gizmos.${group} -n ${home.name}`, { principal: user, mode: 'read' });
    expect(qualified.output).toContain(`the server doesn't have a resource type "gizmos`);
    // b still knows it (its own warm copy).
    expect(await kubectlOn(service, 'get gizmos -A', { clusterName: 'b', principal: user, mode: 'read' })).toMatchObject({ isError: false });
  });
});

describe('a CRD only another cluster has, in MCP server mode', () => {
  let files: ServerModeFiles;
  let client: Client;
  const kubectl = async (command: string, cluster?: string): Promise<{ text: string; isError: boolean }> => {
    const result = (await client.callTool({ name: 'kubectl', arguments: { command, ...(cluster ? { cluster } : {}) } })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    return { text: result.content.map((part) => part.text).join('\n'), isError: result.isError === true };
  };

  beforeAll(async () => {
    files = serverModeFiles({ cluster: { name: 'home' }, clusters: [{ name: 'b', kubeconfig: second.current.kubeconfig }] });
    client = (await connectStdio(files.args(clusterKubeconfig()))).client;
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    files?.remove();
  });

  it('is unknown to kubectl on home after a kubectl call on b resolved it', async () => {
    expect(await kubectl('get gzm -A', 'b')).toMatchObject({ isError: false, text: expect.stringContaining('No resources found') });
    expect((await kubectl('get gzm -A')).text).toContain('the server doesn\'t have a resource type "gzm"');
  });
});

/** An API server whose discovery lies: on it the short name `cm` stands for secrets. It serves empty lists. */
async function startLyingApiServer(): Promise<{ server: Server; kubeconfig: string }> {
  const certificate = loopbackCertificate();
  const resources = [
    { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['get', 'list', 'delete'], shortNames: [] },
    { name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs: ['get', 'list', 'delete'], shortNames: ['cm'] },
    { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['get', 'list'], shortNames: ['ns'] },
  ];
  const answers: Record<string, unknown> = {
    '/version': { major: '1', minor: '36', gitVersion: 'v1.36.0' },
    '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] },
    '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [] },
    '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources },
  };
  const server = createServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
    const pathname = new URL(request.url ?? '/', 'https://liar.invalid').pathname;
    const list = /^\/api\/v1\/(namespaces\/[^/]+\/)?(configmaps|secrets|namespaces)$/.exec(pathname);
    const answer = answers[pathname] ?? (list ? { kind: 'List', apiVersion: 'v1', metadata: {}, items: [] } : undefined);
    response.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer ?? { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const kubeconfig = join(scratch, 'liar.kubeconfig');
  const authority = Buffer.from(certificate.cert).toString('base64');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\ncurrent-context: liar\nclusters:\n- name: liar\n  cluster:\n    server: https://127.0.0.1:${port}\n    certificate-authority-data: ${authority}\ncontexts:\n- name: liar\n  context: {cluster: liar, user: liar}\nusers:\n- name: liar\n  user: {token: liar-token}\n`,
    { mode: 0o600 },
  );
  return { server, kubeconfig };
}

describe('a registered cluster whose discovery lies', () => {
  let service: TestService;
  let liar: { server: Server; kubeconfig: string };
  const exists = async (kind: string): Promise<boolean> => (await tryKubectl(clusterKubeconfig(), ['get', kind, 'victim', '-n', home.name])).code === 0;

  beforeAll(async () => {
    liar = await startLyingApiServer();
    await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'victim', '-n', home.name, '--from-literal=a=b']);
    await runKubectl(clusterKubeconfig(), ['create', 'secret', 'generic', 'victim', '-n', home.name, '--from-literal=password=hunter2']);
    service = await startTestService({
      config: { cluster: { name: 'home', secrets: false }, clusters: [{ name: 'liar', kubeconfig: liar.kubeconfig }] } as never,
    });
    await waitReachable(service, 2);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    liar?.server.close();
  });

  it('cannot make an approved `kubectl delete cm victim` on home delete the Secret victim', async () => {
    // A role user's read on the lying cluster (runs without approval): there, `cm` means secrets.
    const lied = await kubectlOn(service, `get cm -n ${home.name}`, { clusterName: 'liar', principal: user, mode: 'read' });
    expect(lied.output).toContain('No resources found');
    // Then an admin's approved delete on home: kubectl resolves `cm` with home's own discovery.
    const deleted = await kubectlOn(service, `delete cm victim -n ${home.name} --wait=false`, { principal: admin, mode: 'approved' });
    expect(deleted).toMatchObject({ isError: false, output: expect.stringContaining('configmap "victim" deleted') });
    await waitFor(async () => !(await exists('configmap')));
    expect(await exists('secret')).toBe(true);
  });
});
