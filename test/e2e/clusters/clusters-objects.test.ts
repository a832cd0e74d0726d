import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, waitFor } from '../../helpers/cluster.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { downloadReport, followReportEvents } from '../../helpers/report-client.js';
import { useSecondCluster } from '../../helpers/second-cluster.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Port forwards, reports, terminal tickets and drains on a named cluster (issue 29, ADR 0035), on two real
// clusters: the shared test cluster is `home`, a second one of this file is `b`. The same namespace and pod
// names exist on both, with different contents, so an object that reached the wrong cluster shows as the
// wrong answer. Impersonation is on, with b's own mapping for admins (`clusters[].impersonation.mappings`):
// a forward to b runs as b's identity.
const second = useSecondCluster(1);
const shared = uniqueName('objs');
const onlyOnB = uniqueName('only-b');
const onlyOnHome = uniqueName('only-home');
const homeAdmin = uniqueName('home-admin');
const bAdmin = uniqueName('b-admin');
let service: TestService;
const targets: { home?: Server; b?: Server } = {};

/** An HTTP server standing for a pod's port: it answers with the cluster it stands for. */
async function podSide(cluster: string): Promise<Server> {
  const server = createServer((request, response) => response.end(`hello from ${cluster} ${request.url}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const podYaml = (name: string, forwardTo: Server) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${shared}
  annotations: {pilothouse.dev/forward-80: "127.0.0.1:${(forwardTo.address() as AddressInfo).port}"}
spec:
  containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]`;

/** The same namespace and pod `web` on `kubeconfig`, its port 80 forwarded (by the test cluster) to `server`. */
async function seed(kubeconfig: string, server: Server, ownNamespace: string, admin: string): Promise<void> {
  await runKubectl(kubeconfig, ['create', 'namespace', shared]);
  await runKubectl(kubeconfig, ['create', 'namespace', ownNamespace]);
  await runKubectl(kubeconfig, ['create', 'clusterrolebinding', admin, '--clusterrole=cluster-admin', `--user=${admin}`]);
  await runKubectl(kubeconfig, ['apply', '-f', '-'], podYaml('web', server));
  await waitFor(async () => (await runKubectl(kubeconfig, ['get', 'pod', 'web', '-n', shared, '-o', 'jsonpath={.status.phase}'])) === 'Running', 60_000);
}

beforeAll(async () => {
  targets.home = await podSide('home');
  targets.b = await podSide('b');
  await seed(clusterKubeconfig(), targets.home, onlyOnHome, homeAdmin);
  await seed(second.current.kubeconfig, targets.b, onlyOnB, bAdmin);
  service = await startTestService({
    config: {
      cluster: { name: 'home', secrets: false },
      clusters: [{ name: 'b', kubeconfig: second.current.kubeconfig, impersonation: { mappings: { admin: bAdmin } } }],
      authorization: { impersonation: { enabled: true, mappings: { admin: homeAdmin, user: homeAdmin, viewer: homeAdmin } } },
    } as never,
  });
  await waitFor(async () => {
    const listed = await service.api<{ items: { reachable: boolean }[] }>('GET', '/api/clusters', { token: service.adminToken });
    return listed.status === 200 && listed.body.items.length === 2 && listed.body.items.every((cluster) => cluster.reachable);
  }, 60_000);
}, 300_000);

afterAll(async () => {
  await service?.close();
  targets.home?.close();
  targets.b?.close();
  await tryKubectl(clusterKubeconfig(), ['delete', 'namespace', shared, onlyOnHome, '--wait=false']);
  await tryKubectl(clusterKubeconfig(), ['delete', 'clusterrolebinding', homeAdmin]);
});

interface AuditItem {
  action: string;
  resource: string;
  cluster?: string;
  details: Record<string, unknown>;
}

const text = (port: number, path: string): Promise<string> =>
  fetch(`http://127.0.0.1:${port}${path}`)
    .then((response) => response.text())
    .catch(() => '');
const ownObject = (kind: string, name: string, path: string) =>
  runKubectl(clusterKubeconfig(), ['get', kind, name, '-n', service.namespace, '-o', `jsonpath=${path}`]);

describe('port forwards on a named cluster', () => {
  it("opens a forward of ?cluster=b to b's pod as b's identity; the list names and filters by cluster", async () => {
    const created = await service.api('POST', '/api/portforward?cluster=b', {
      token: service.adminToken,
      body: { namespace: shared, pod: 'web', podPort: 80 },
    });
    expect(created.status).toBe(201);
    const { id, localPort } = created.body as { id: string; localPort: number };
    await waitFor(async () => (await text(localPort, '/probe')).includes('hello'));
    // The same namespace/pod on home forwards to home's server: this one reached b's.
    expect(await text(localPort, '/x')).toBe('hello from b /x');
    // The object (in the home cluster) names b, and the identity of b's own mapping.
    expect(await ownObject('portforwards.pilothouse.dev', id, '{.spec.cluster} {.metadata.annotations.pilothouse\\.dev/cluster-identity}')).toBe(`b ${bAdmin}`);

    const home = await service.api('POST', '/api/portforward', { token: service.adminToken, body: { namespace: shared, pod: 'web', podPort: 80 } });
    expect(home.status).toBe(201);
    await waitFor(async () => (await text(home.body.localPort, '/probe')).includes('hello'));
    expect(await text(home.body.localPort, '/y')).toBe('hello from home /y');

    const ids = async (search: string) =>
      (await service.api('GET', `/api/portforward${search}`, { token: service.adminToken })).body.items.map((item: { id: string; cluster: string }) => [
        item.id,
        item.cluster,
      ]);
    expect(await ids('')).toEqual(
      expect.arrayContaining([
        [id, 'b'],
        [home.body.id, 'home'],
      ]),
    );
    expect(await ids('?cluster=b')).toEqual([[id, 'b']]);
    expect(await ids('?cluster=home')).toEqual([[home.body.id, 'home']]);
    expect(await ids('?cluster=gone')).toEqual([]);

    // Stopping it (a route that is not cluster-facing) records b's forward on b.
    expect((await service.api('DELETE', `/api/portforward/${id}`, { token: service.adminToken })).status).toBe(200);
    const audit = await service.api<{ items: AuditItem[] }>('GET', '/api/audit?action=execute&cluster=b&limit=200', { token: service.adminToken });
    expect(audit.body.items.find((entry) => entry.resource === `portforward/${id}`)).toMatchObject({ cluster: 'b' });
    expect(audit.body.items.find((entry) => entry.resource === 'pod/web' && String(entry.details.command).includes('port-forward'))).toMatchObject({
      cluster: 'b',
    });
    await service.api('DELETE', `/api/portforward/${home.body.id}`, { token: service.adminToken });
  });

  it('refuses an unknown cluster: 404 on create, and a PortForward naming one fails without listening', async () => {
    const unknown = await service.api('POST', '/api/portforward?cluster=nowhere', {
      token: service.adminToken,
      body: { namespace: shared, pod: 'web', podPort: 80 },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', details: { cluster: 'nowhere' } });
    // b's pod exists only under that name on b; asked on home, the pod of b is not there.
    const onHome = await service.api('POST', '/api/portforward', { token: service.adminToken, body: { namespace: onlyOnB, pod: 'web', podPort: 80 } });
    expect(onHome.status).toBe(404);

    const object = `apiVersion: pilothouse.dev/v1alpha1
kind: PortForward
metadata: {name: pf-nowhere, annotations: {pilothouse.dev/cluster-identity: ${homeAdmin}}}
spec: {namespace: ${shared}, pod: web, podPort: 80, localPort: 0, requester: admin, cluster: nowhere}
`;
    await runKubectl(clusterKubeconfig(), ['apply', '-n', service.namespace, '-f', '-'], object);
    const phase = () => ownObject('portforwards.pilothouse.dev', 'pf-nowhere', '{.status.phase}|{.status.message}|{.status.localPort}');
    await waitFor(async () => (await phase()).startsWith('failed|'));
    expect(await phase()).toBe('failed|refused: cluster nowhere not found (not one of GET /api/clusters; removed, or never registered)|');
  });
});

describe('reports on a named cluster', () => {
  it("generates a report of ?cluster=b from b's namespaces, not home's; the list names and filters by cluster", async () => {
    const requested = await service.api('POST', '/api/reports?cluster=b', { token: service.adminToken, body: { type: 'cluster-overview', format: 'json' } });
    expect(requested.status).toBe(202);
    const id = requested.body.id as string;
    expect(await ownObject('reports.pilothouse.dev', id, '{.spec.cluster}')).toBe('b');
    const events = await followReportEvents(service, id, service.adminToken);
    expect(events.at(-1)?.event).toBe('completed');

    const file = await downloadReport(service, id, service.adminToken);
    expect(file.status).toBe(200);
    const document = JSON.parse(file.bytes.toString('utf8')) as { cluster: { name?: string }; sections: { id: string }[] };
    expect(document.cluster.name).toBe('b');
    const namespaces = JSON.stringify(document.sections.find((section) => section.id === 'namespaces'));
    expect(namespaces).toContain(onlyOnB);
    expect(namespaces).not.toContain(onlyOnHome);

    const listed = async (search: string) =>
      (await service.api('GET', `/api/reports${search}`, { token: service.adminToken })).body.items.map((item: { id: string; cluster: string }) => [
        item.id,
        item.cluster,
      ]);
    expect(await listed('')).toContainEqual([id, 'b']);
    expect(await listed('?cluster=b')).toEqual([[id, 'b']]);
    expect(await listed('?cluster=home')).not.toContainEqual([id, 'b']);
    expect((await service.api('GET', `/api/reports/${id}`, { token: service.adminToken })).body.cluster).toBe('b');

    // A namespace is checked on the report's cluster: b's namespace does not exist on home.
    const wrongCluster = await service.api('POST', '/api/reports', {
      token: service.adminToken,
      body: { type: 'cluster-overview', format: 'json', namespace: onlyOnB },
    });
    expect(wrongCluster.status).toBe(400);
    const rightCluster = await service.api('POST', '/api/reports?cluster=b', {
      token: service.adminToken,
      body: { type: 'cluster-overview', format: 'json', namespace: onlyOnB },
    });
    expect(rightCluster.status).toBe(202);
    expect((await followReportEvents(service, rightCluster.body.id, service.adminToken)).at(-1)?.event).toBe('completed');
    expect(
      (await service.api('POST', '/api/reports?cluster=nowhere', { token: service.adminToken, body: { type: 'cluster-overview', format: 'json' } })).status,
    ).toBe(404);
  }, 180_000);

  it('fails a Report naming a cluster that does not exist (any more), with a clear message', async () => {
    const report = `apiVersion: pilothouse.dev/v1alpha1
kind: Report
metadata: {name: report-nowhere, namespace: ${service.namespace}}
spec: {type: cluster-overview, format: json, requester: admin, cluster: nowhere}
`;
    // The requester admission policy wants the creating user to be the requester.
    await runKubectl(clusterKubeconfig(), ['--as', 'admin', '--as-group', 'system:masters', 'create', '-f', '-'], report);
    const events = await followReportEvents(service, 'report-nowhere', service.adminToken);
    expect(events.at(-1)?.event).toBe('failed');
    expect(events.at(-1)?.data.message).toContain('cluster nowhere not found');
  }, 120_000);
});

describe('terminal tickets on a named cluster', () => {
  const handshake = (url: string): Promise<number> =>
    new Promise((resolve) => {
      const socket = new WebSocket(url, ['pilothouse.terminal.v1']);
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('error', () => resolve(-1));
      socket.on('open', () => {
        socket.close();
        resolve(101);
      });
    });
  const issue = async (cluster?: string): Promise<string> => {
    const response = await service.api('POST', `/api/pods/web/terminal/ticket${cluster ? `?cluster=${cluster}` : ''}`, {
      token: service.adminToken,
      body: { namespace: shared },
    });
    expect(response.status).toBe(201);
    return response.body.ticket as string;
  };
  const terminal = (query: string) => `${service.url.replace('http', 'ws')}/api/pods/web/terminal?namespace=${shared}${query}`;

  it("refuses a ticket issued for b on home's pod of the same name, and opens b's with it", async () => {
    expect(await handshake(terminal(`&ticket=${await issue('b')}`))).toBe(403);
    expect(await handshake(terminal(`&ticket=${await issue()}&cluster=b`))).toBe(403);
    expect(await handshake(terminal(`&ticket=${await issue('b')}&cluster=b`))).toBe(101);
    expect(await handshake(terminal(`&ticket=${await issue()}`))).toBe(101);
  });
});

describe('drains on a named cluster', () => {
  it("reads the progress of b's drain whatever ?cluster= says, its result naming b", async () => {
    const node = await runKubectl(second.current.kubeconfig, ['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}']);
    const started = await service.api('POST', '/api/node/drain?cluster=b', {
      token: service.adminToken,
      body: { name: node, ignoreDaemonSets: true, force: true, timeoutSeconds: 30 },
    });
    expect(started.status).toBe(202);
    const response = await fetch(`${service.url}/api/node/drain/${started.body.id}`, { headers: { Authorization: `Bearer ${service.adminToken}` } });
    expect(response.status).toBe(200);
    const blocks = (await response.text()).split('\n\n').filter((block) => block.startsWith('event:'));
    const result = blocks.find((block) => block.startsWith('event: result'));
    expect(JSON.parse(result!.split('\n')[1]!.slice(6))).toMatchObject({ node, cluster: 'b' });
    expect(await runKubectl(second.current.kubeconfig, ['get', 'node', node, '-o', 'jsonpath={.spec.unschedulable}'])).toBe('true');
  }, 90_000);
});
