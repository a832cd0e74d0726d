import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('metrics');
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1
kind: Pod
metadata:
  name: busy
  annotations: {kwok.x-k8s.io/usage-cpu: "250m", kwok.x-k8s.io/usage-memory: "64Mi"}
spec:
  containers: [{name: one, image: busybox}, {name: two, image: busybox}]`,
    namespace.name,
  );
});

afterAll(async () => {
  await service?.close();
});

describe('metrics', () => {
  it('reports pod usage summed over containers', async () => {
    const path = `/api/metrics/pod?namespace=${namespace.name}`;
    await waitFor(async () => (await service.api('GET', path, { token: service.adminToken })).body.items?.length === 1, 90_000, 1000);
    const response = await service.api('GET', path, { token: service.adminToken });
    const [item] = response.body.items;
    expect(item).toMatchObject({ name: 'busy', namespace: namespace.name, memory: '128Mi' });
    // 2 × 250m; metrics-server computes rates from scrapes, so allow a millicore or two of drift.
    expect(Math.abs(Number.parseInt(item.cpu, 10) - 500)).toBeLessThanOrEqual(5);
    expect(item.cpu).toMatch(/^\d+m$/);
  }, 120_000);

  it('reports node usage against allocatable', async () => {
    const response = await service.api('GET', '/api/metrics/node', { token: service.adminToken });
    expect(response.status).toBe(200);
    const node = response.body.items.find((item: { name: string }) => item.name === 'kwok-node-0');
    expect(node.cpu).toMatch(/^\d+m$/);
    expect(node.memory).toMatch(/^\d+Mi$/);
    expect(node.cpuPercent).toBe(Math.round((Number.parseInt(node.cpu, 10) / 32_000) * 100));
    expect(typeof node.memoryPercent).toBe('number');
  });

  it('rejects a bad namespace', async () => {
    expect((await service.api('GET', '/api/metrics/pod?namespace=Not_Valid', { token: service.adminToken })).status).toBe(400);
  });

  // Removes metrics.k8s.io from the shared cluster for a moment, then restores it.
  it('says metrics_unavailable (503) when metrics.k8s.io is not served', async () => {
    const kubeconfig = clusterKubeconfig();
    const saved = JSON.parse(await runKubectl(kubeconfig, ['get', 'apiservice', 'v1beta1.metrics.k8s.io', '-o', 'json']));
    await runKubectl(kubeconfig, ['delete', 'apiservice', 'v1beta1.metrics.k8s.io']);
    try {
      await waitFor(async () => (await service.api('GET', '/api/metrics/node', { token: service.adminToken })).status === 503);
      const response = await service.api('GET', '/api/metrics/pod', { token: service.adminToken });
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('K8S_ERROR');
      expect(response.body.details.reason).toBe('metrics_unavailable');
    } finally {
      const metadata = { name: saved.metadata.name, labels: saved.metadata.labels };
      await runKubectl(kubeconfig, ['create', '-f', '-'], JSON.stringify({ apiVersion: saved.apiVersion, kind: saved.kind, metadata, spec: saved.spec }));
      await waitFor(async () => (await service.api('GET', '/api/metrics/node', { token: service.adminToken })).status === 200, 60_000, 500);
    }
  }, 120_000);
});
