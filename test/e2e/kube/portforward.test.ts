import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('pf');
let service: TestService;
let target: Server;

beforeAll(async () => {
  target = createServer((request, response) => response.end(`hello from the pod side ${request.url}`));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const targetPort = (target.address() as AddressInfo).port;
  service = await startTestService();
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1
kind: Pod
metadata:
  name: web
  annotations: {pilothouse.dev/forward-80: "127.0.0.1:${targetPort}"}
spec:
  containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]`,
    namespace.name,
  );
  await waitFor(
    async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', 'web', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
  );
});

afterAll(async () => {
  await service?.close();
  target?.close();
});

const create = (body: unknown) => service.api('POST', '/api/portforward', { body, token: service.adminToken });

describe('port forward', () => {
  it('forwards a local port to the pod, lists it, and stops it', async () => {
    const created = await create({ namespace: namespace.name, pod: 'web', podPort: 80, localPort: 0 });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('active');
    const { id, localPort } = created.body as { id: string; localPort: number };
    expect(localPort).toBeGreaterThan(0);

    await waitFor(async () =>
      (
        await fetch(`http://127.0.0.1:${localPort}/probe`)
          .then((response) => response.text())
          .catch(() => '')
      ).includes('hello'),
    );
    expect(await (await fetch(`http://127.0.0.1:${localPort}/x`)).text()).toBe('hello from the pod side /x');

    const crd = await runKubectl(clusterKubeconfig(), [
      'get',
      'portforwards.pilothouse.dev',
      id,
      '-n',
      service.namespace,
      '-o',
      'jsonpath={.spec.pod} {.status.phase} {.spec.requester}',
    ]);
    expect(crd).toBe('web active admin');
    const listed = await service.api('GET', '/api/portforward', { token: service.adminToken });
    expect(listed.body.items).toEqual([expect.objectContaining({ id, namespace: namespace.name, pod: 'web', podPort: 80, localPort, status: 'active' })]);

    expect((await service.api('DELETE', `/api/portforward/${id}`, { token: service.adminToken })).body).toEqual({ id, status: 'stopped' });
    await waitFor(
      async () =>
        (await fetch(`http://127.0.0.1:${localPort}/`)
          .then(() => 'open')
          .catch(() => 'closed')) === 'closed',
    );
    expect((await service.api('DELETE', `/api/portforward/${id}`, { token: service.adminToken })).status).toBe(404);
  });

  it('fails clearly when the local port is in use', async () => {
    const busy = (target.address() as AddressInfo).port;
    const response = await create({ namespace: namespace.name, pod: 'web', podPort: 80, localPort: busy });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(`local port ${busy} is in use`);
  });

  it('closes the forward when the pod goes away', async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1\nkind: Pod\nmetadata: {name: brief}\nspec:\n  containers: [{name: web, image: nginx}]`,
      namespace.name,
    );
    await waitFor(
      async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', 'brief', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
    );
    const created = await create({ namespace: namespace.name, pod: 'brief', podPort: 80 });
    expect(created.status).toBe(201);
    await runKubectl(clusterKubeconfig(), ['delete', 'pod', 'brief', '-n', namespace.name, '--grace-period=0', '--force']);
    await waitFor(async () => {
      const listed = await service.api('GET', '/api/portforward', { token: service.adminToken });
      return listed.body.items.some((item: { id: string; status: string }) => item.id === created.body.id && item.status === 'failed');
    });
    await waitFor(
      async () =>
        (await fetch(`http://127.0.0.1:${created.body.localPort}/`)
          .then(() => 'open')
          .catch(() => 'closed')) === 'closed',
    );
  });

  it('404s for an unknown pod or namespace and 400s for bad input', async () => {
    expect((await create({ namespace: namespace.name, pod: 'ghost', podPort: 80 })).status).toBe(404);
    expect((await create({ namespace: 'default', pod: 'web', podPort: 80 })).status).toBe(404);
    expect((await create({ namespace: namespace.name, pod: 'web', podPort: 0 })).status).toBe(400);
    expect((await create({ namespace: namespace.name, pod: 'web', podPort: 80, localPort: 70000 })).status).toBe(400);
  });
});

describe('the requesting identity of a forward', () => {
  const kubectl = (...args: string[]) => runKubectl(clusterKubeconfig(), [...args, '-n', service.namespace]);
  const phaseAndMessage = (name: string) => kubectl('get', 'portforwards.pilothouse.dev', name, '-o', 'jsonpath={.status.phase}|{.status.message}');

  it('is on the object from its creation', async () => {
    const created = await create({ namespace: namespace.name, pod: 'web', podPort: 80 });
    expect(created.status).toBe(201);
    // Impersonation is off in this service: the forward states it runs as the service.
    expect(
      await kubectl('get', 'portforwards.pilothouse.dev', created.body.id, '-o', 'jsonpath={.metadata.annotations.pilothouse\\.dev/cluster-identity}'),
    ).toBe('pilothouse:service');
    await service.api('DELETE', `/api/portforward/${created.body.id}`, { token: service.adminToken });
  });

  it('is required: a PortForward without it, or with an identity Pilothouse never uses, fails and never listens', async () => {
    const object = (name: string, annotations: string) =>
      `apiVersion: pilothouse.dev/v1alpha1\nkind: PortForward\nmetadata: {name: ${name}${annotations}}\nspec: {namespace: ${namespace.name}, pod: web, podPort: 80, localPort: 0, requester: intruder}\n`;
    await applyYaml(clusterKubeconfig(), object('pf-anonymous', ''), service.namespace);
    await applyYaml(clusterKubeconfig(), object('pf-forged', ', annotations: {pilothouse.dev/cluster-identity: "system:admin"}'), service.namespace);
    await waitFor(async () => (await phaseAndMessage('pf-anonymous')).startsWith('failed|'));
    await waitFor(async () => (await phaseAndMessage('pf-forged')).startsWith('failed|'));
    expect(await phaseAndMessage('pf-anonymous')).toContain('no requesting identity');
    expect(await phaseAndMessage('pf-forged')).toContain('system:admin');
    expect(await kubectl('get', 'portforwards.pilothouse.dev', 'pf-anonymous', '-o', 'jsonpath={.status.localPort}')).toBe('');
  });
});
