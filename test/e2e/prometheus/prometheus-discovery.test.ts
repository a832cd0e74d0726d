import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Without `prometheus.url` or `prometheus.service`, Pilothouse looks for Prometheus the way Headlamp does (issue 36):
 * a Service labelled `pilothouse.dev/prometheus=true` first, then `app.kubernetes.io/name=prometheus`, then
 * `prometheus-operated`, reached through the API server's service proxy. (Answers through the proxy need a
 * reachable endpoint: proven on the real node, test/node.)
 */
const monitoring = useNamespace('pd-mon');
let service: TestService;

const serviceYaml = (name: string, labels: string, ports: string, annotations = '{}'): string => `apiVersion: v1
kind: Service
metadata: {name: ${name}, labels: ${labels}, annotations: ${annotations}}
spec: {ports: ${ports}}
`;

beforeAll(async () => {
  await applyYaml(
    clusterKubeconfig(),
    serviceYaml('chart-prometheus', '{app.kubernetes.io/name: prometheus}', '[{name: http, port: 9090}]') +
      '---\n' +
      serviceYaml(
        'metrics-store',
        '{pilothouse.dev/prometheus: "true"}',
        '[{name: grpc, port: 10901}, {name: web, port: 8080}]',
        '{pilothouse.dev/prometheus-path: /prom}',
      ),
    monitoring.name,
  );
  service = await startTestService();
}, 120_000);

afterAll(async () => {
  await service?.close();
});

describe('finding Prometheus in the cluster', () => {
  it('takes the Service with our label before the chart label, on its web port, and says so on GET /api/clusters', async () => {
    const clusters = await service.api('GET', '/api/clusters', { token: service.adminToken });
    expect(clusters.body.items[0].history).toMatchObject({ source: 'detected', where: `service ${monitoring.name}/metrics-store:web` });
    const health = await service.api('GET', '/api/health');
    expect(health.body.details.history).toMatchObject({ source: 'detected', where: `service ${monitoring.name}/metrics-store:web` });
  });

  it('answers 503 UNAVAILABLE with the contract body when the found Service has no endpoint', async () => {
    const answer = await service.api('POST', '/api/prometheus/query', { token: service.adminToken, body: { query: 'up' } });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ error: expect.stringContaining('metrics-store'), code: 'UNAVAILABLE', details: expect.any(Object) });
    expect(answer.text).not.toMatch(/\n\s+at /);
  });
});
