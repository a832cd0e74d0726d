import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// /metrics may be public (the chart's metrics.public): its cache sizes name no namespace and nothing
// of a caller, only a total per cluster and resource (security review four, finding 7).
const first = useNamespace('metrics-a');
const second = useNamespace('metrics-b');
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ config: { metrics: { public: true } } });
  const kubeconfig = clusterKubeconfig();
  for (const [namespace, count] of [
    [first.name, 2],
    [second.name, 3],
  ] as const) {
    for (let index = 0; index < count; index += 1)
      await runKubectl(kubeconfig, ['create', 'secret', 'generic', `s${index}`, '-n', namespace, `--from-literal=key=value-${index}`]);
  }
}, 60_000);

afterAll(async () => {
  await service?.close();
});

const cacheLines = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('pilothouse_cache_objects{'));

describe('cache sizes on /metrics', () => {
  it('are one total per cluster and resource, without namespaces or callers', async () => {
    const user = await service.createUser('user');
    for (const namespace of [first.name, second.name]) {
      const listed = await service.api('GET', `/api/k8s/secrets?namespace=${namespace}`, { token: user.token });
      expect(listed.status).toBe(200);
    }
    expect((await service.api('GET', '/api/k8s/configmaps', { token: service.adminToken })).status).toBe(200);
    let lines: string[] = [];
    await waitFor(async () => {
      lines = cacheLines((await service.api('GET', '/metrics')).text);
      return lines.some((line) => line.startsWith('pilothouse_cache_objects{resource="secrets",cluster="home"}'));
    });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^pilothouse_cache_objects\{resource="[^"]+",cluster="[^"]+"\} \d+$/);
    const text = lines.join('\n');
    expect(text).not.toContain('namespace=');
    expect(text).not.toContain(first.name);
    expect(text).not.toContain(second.name);
    expect(text).not.toContain(user.username);
    expect(lines.filter((line) => line.includes('resource="secrets"'))).toHaveLength(1);
    const secrets = Number(lines.find((line) => line.includes('resource="secrets"'))?.split(' ')[1]);
    expect(secrets).toBeGreaterThanOrEqual(5);
  });
});
