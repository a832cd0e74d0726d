import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml } from '../../helpers/kubectl.js';
import { samplesUntil, startPrometheus, type RunningPrometheus, type TestSeries } from '../../helpers/prometheus.js';
import { startTestService, type ApiResponse, type TestService } from '../../helpers/service.js';

/**
 * GET /api/metrics/history (issue 36): named series with units for pods, workloads, nodes and PVCs from a real
 * Prometheus, restricted like any query; and, without Prometheus, this replica's in-memory history of metrics-server.
 */
const team = useNamespace('ph-team');
const other = useNamespace('ph-other');
const now = Math.floor(Date.now() / 1000);
const node = 'history-node-1';
let prometheus: RunningPrometheus;
let service: TestService;
let fallback: TestService;
let viewer: { token: string };

/** A counter rising by `perSecond` every second (sampled every 30 s over the last two hours). */
const counter = (perSecond: number): [number, number][] => samplesUntil(now, 7200, 30, (index) => index * 30 * perSecond);
const gauge = (value: number): [number, number][] => samplesUntil(now, 7200, 30, () => value);

function podSeries(namespace: string, pod: string, cpu: number, memory: number): TestSeries[] {
  const labels = { namespace, pod, container: 'main', node };
  return [
    { name: 'container_cpu_usage_seconds_total', labels, samples: counter(cpu) },
    { name: 'container_memory_working_set_bytes', labels, samples: gauge(memory) },
    { name: 'container_network_receive_bytes_total', labels: { namespace, pod, interface: 'eth0' }, samples: counter(1000) },
    { name: 'container_network_transmit_bytes_total', labels: { namespace, pod, interface: 'eth0' }, samples: counter(500) },
    { name: 'kube_pod_container_status_restarts_total', labels: { namespace, pod, container: 'main' }, samples: gauge(3) },
    { name: 'kube_pod_info', labels: { namespace, pod, node }, samples: gauge(1) },
  ];
}

const last = (answer: { series: { name: string; points: [number, number][] }[] }, name: string): number | undefined =>
  answer.series.find((series) => series.name === name)?.points.at(-1)?.[1];
const history = (target: TestService, token: string, query: string): Promise<ApiResponse> => target.api('GET', `/api/metrics/history?${query}`, { token });

beforeAll(async () => {
  prometheus = await startPrometheus({
    series: [
      ...podSeries(team.name, 'api-0', 0.5, 200_000_000),
      ...podSeries(team.name, 'web-7d9f-aaaaa', 0.25, 100_000_000),
      ...podSeries(team.name, 'web-7d9f-bbbbb', 0.75, 300_000_000),
      ...podSeries(other.name, 'secret-0', 4, 900_000_000),
      { name: 'kubelet_volume_stats_used_bytes', labels: { namespace: team.name, persistentvolumeclaim: 'data' }, samples: gauge(2_000_000) },
      { name: 'kubelet_volume_stats_capacity_bytes', labels: { namespace: team.name, persistentvolumeclaim: 'data' }, samples: gauge(10_000_000) },
    ],
  });
  service = await startTestService({
    config: {
      prometheus: { url: prometheus.url },
      authorization: { roles: [{ name: 'no-other', resources: ['*'], namespaces: [other.name], verbs: ['*'], effect: 'deny' }] },
    },
  });
  viewer = await service.createUser('viewer', { roles: ['no-other'] });
}, 120_000);

afterAll(async () => {
  await service?.close();
  await fallback?.close();
  await prometheus?.stop();
});

describe('usage history from Prometheus', () => {
  it("answers a pod's CPU, memory, network and restarts with units", async () => {
    const answer = await history(service, viewer.token, `kind=pod&namespace=${team.name}&name=api-0&range=1h`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ kind: 'pod', namespace: team.name, name: 'api-0', source: 'prometheus', step: 15 });
    expect(answer.body.series.map((series: { name: string; unit: string }) => `${series.name}:${series.unit}`)).toEqual([
      'cpu:cores',
      'memory:bytes',
      'network_in:bytes/s',
      'network_out:bytes/s',
      'restarts:count',
    ]);
    expect(last(answer.body, 'cpu')).toBeCloseTo(0.5, 3);
    expect(last(answer.body, 'memory')).toBe(200_000_000);
    expect(last(answer.body, 'network_in')).toBeCloseTo(1000, 0);
    expect(last(answer.body, 'network_out')).toBeCloseTo(500, 0);
    expect(last(answer.body, 'restarts')).toBe(3);
    expect(answer.body.series[0].points.length).toBeGreaterThan(200);
  });

  it("sums a workload's pods", async () => {
    const answer = await history(service, viewer.token, `kind=workload&namespace=${team.name}&name=web-7d9f&range=6h`);
    expect(answer.status, answer.text).toBe(200);
    expect(last(answer.body, 'cpu')).toBeCloseTo(1, 3);
    expect(last(answer.body, 'memory')).toBe(400_000_000);
    expect(answer.body.step).toBe(90);
  });

  it("answers a node's CPU, memory and pods, counting only the pods the caller may see", async () => {
    const mine = await history(service, viewer.token, `kind=node&name=${node}&range=15m`);
    expect(mine.status, mine.text).toBe(200);
    expect(last(mine.body, 'pods')).toBe(3);
    expect(last(mine.body, 'cpu')).toBeCloseTo(1.5, 3);
    const everything = await history(service, service.adminToken, `kind=node&name=${node}&range=15m`);
    expect(last(everything.body, 'pods')).toBe(4);
    expect(last(everything.body, 'cpu')).toBeCloseTo(5.5, 3);
  });

  it("answers a PVC's used and capacity bytes", async () => {
    const answer = await history(service, viewer.token, `kind=pvc&namespace=${team.name}&name=data&range=1d`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.series.map((series: { name: string }) => series.name)).toEqual(['used', 'capacity']);
    expect(last(answer.body, 'used')).toBe(2_000_000);
    expect(last(answer.body, 'capacity')).toBe(10_000_000);
  });

  it('refuses the history of a namespace the caller may not read, and bad ranges', async () => {
    const denied = await history(service, viewer.token, `kind=pod&namespace=${other.name}&name=secret-0`);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'FORBIDDEN', details: { namespace: other.name } });
    for (const query of [
      `kind=pod&namespace=${team.name}&name=api-0&range=5m`,
      `kind=pod&namespace=${team.name}&name=api-0&range=30d`,
      'kind=pod&name=api-0',
      'kind=job&name=x',
    ]) {
      const refused = await history(service, viewer.token, query);
      expect(refused.status, query).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('usage history without Prometheus', () => {
  it("keeps this replica's own short history from metrics-server", async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1
kind: Pod
metadata:
  name: busy
  annotations: {kwok.x-k8s.io/usage-cpu: "250m", kwok.x-k8s.io/usage-memory: "64Mi"}
spec:
  containers: [{name: one, image: busybox}]`,
      team.name,
    );
    fallback = await startTestService({ config: { prometheus: { detect: false, fallback: { interval: '1s', window: '1m' } } } });
    const path = `kind=pod&namespace=${team.name}&name=busy&range=15m`;
    let answer = await history(fallback, fallback.adminToken, path);
    await waitFor(
      async () => {
        answer = await history(fallback, fallback.adminToken, path);
        return (answer.body.series?.[0]?.points.length ?? 0) >= 2;
      },
      90_000,
      500,
    );
    expect(answer.body).toMatchObject({ source: 'memory', step: 1 });
    expect(last(answer.body, 'memory')).toBe(64 * 1024 * 1024);
    expect(Math.abs((last(answer.body, 'cpu') ?? 0) - 0.25)).toBeLessThanOrEqual(0.005);
    const clusters = await fallback.api('GET', '/api/clusters', { token: fallback.adminToken });
    expect(clusters.body.items[0].history).toMatchObject({ available: false, source: 'none', reason: expect.stringContaining('detection is off') });
  }, 120_000);
});
