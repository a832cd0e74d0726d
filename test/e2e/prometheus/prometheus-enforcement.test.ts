import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileQueries } from '../../../src/prometheus/hostile-queries.js';
import { clusterKubeconfig, uniqueName, useNamespace } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { samplesUntil, startPrometheus, type RunningPrometheus, type TestSeries } from '../../helpers/prometheus.js';
import { startTestService, type ApiResponse, type TestService } from '../../helpers/service.js';

/**
 * PromQL through Pilothouse against a real Prometheus (issue 36): a viewer whose cluster identity may list pods
 * in a, b and c, with a deny role on c, reads series of a and b only whatever the query says. Each hostile query's
 * answer equals the same query's answer on a second Prometheus that holds only a's and b's series.
 */
const a = useNamespace('pq-a');
const b = useNamespace('pq-b');
const c = useNamespace('pq-c');
const clusterUser = uniqueName('pq-viewer');
const clusterAdmin = uniqueName('pq-admin');
const now = Math.floor(Date.now() / 1000);
let full: RunningPrometheus;
let onlyOwn: RunningPrometheus;
let service: TestService;
let viewer: { username: string; token: string };

/** One pod's series in `namespace`, valued so that sums tell namespaces apart. */
function podSeries(namespace: string, weight: number): TestSeries[] {
  const labels = { namespace, pod: `web-${namespace}`, container: 'main' };
  return [
    { name: 'kube_pod_info', labels: { namespace, pod: labels.pod }, samples: samplesUntil(now, 3600, 30, () => 1) },
    { name: 'container_cpu_usage_seconds_total', labels, samples: samplesUntil(now, 3600, 30, (index) => index * weight) },
    { name: 'container_memory_working_set_bytes', labels, samples: samplesUntil(now, 3600, 30, () => weight * 1_000_000) },
    { name: 'apiserver_request_duration_seconds_bucket', labels: { namespace, le: '1', verb: 'GET' }, samples: samplesUntil(now, 3600, 30, (index) => index) },
  ];
}

/** Series without a namespace label: a node, the control plane. */
const clusterSeries: TestSeries[] = [
  { name: 'kube_node_info', labels: { node: 'kwok-node-0' }, samples: samplesUntil(now, 3600, 30, () => 1) },
  { name: 'node_cpu_seconds_total', labels: { instance: 'kwok-node-0', mode: 'idle' }, samples: samplesUntil(now, 3600, 30, (index) => index * 7) },
  { name: 'apiserver_request_duration_seconds_bucket', labels: { le: '1', verb: 'LIST' }, samples: samplesUntil(now, 3600, 30, (index) => index * 3) },
];

const rbacYaml = (namespace: string): string => `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pods-reader, namespace: ${namespace}}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: pods-reader, namespace: ${namespace}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pods-reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: ${clusterUser}}]
`;

const fill = (query: string): string => query.replaceAll('{{own}}', a.name).replaceAll('{{other}}', c.name);
const sorted = (result: unknown[]): string[] => result.map((entry) => JSON.stringify(entry)).sort();
const ask = (token: string, body: unknown, cluster = ''): Promise<ApiResponse> => service.api('POST', `/api/prometheus/query${cluster}`, { token, body });

beforeAll(async () => {
  const own = [...podSeries(a.name, 1), ...podSeries(b.name, 10)];
  [full, onlyOwn] = await Promise.all([
    startPrometheus({ series: [...own, ...podSeries(c.name, 1000), ...podSeries('kube-system', 100_000), ...clusterSeries] }),
    startPrometheus({ series: own }),
  ]);
  for (const namespace of [a.name, b.name, c.name]) await applyYaml(clusterKubeconfig(), rbacYaml(namespace));
  await runKubectl(clusterKubeconfig(), ['create', 'clusterrolebinding', clusterAdmin, '--clusterrole=cluster-admin', `--user=${clusterAdmin}`]);
  service = await startTestService({
    config: {
      prometheus: { url: full.url },
      authorization: {
        impersonation: { enabled: true, mappings: { viewer: clusterUser, admin: clusterAdmin } },
        roles: [{ name: 'no-c', resources: ['*'], namespaces: [c.name], verbs: ['*'], effect: 'deny' }],
      },
    },
  });
  viewer = await service.createUser('viewer', { roles: ['no-c'] });
}, 120_000);

afterAll(async () => {
  await tryKubectl(clusterKubeconfig(), ['delete', 'clusterrolebinding', clusterAdmin]);
  await service?.close();
  await Promise.all([full?.stop(), onlyOwn?.stop()]);
});

describe('PromQL for a viewer limited to two namespaces, against a real Prometheus', () => {
  it.each(hostileQueries.map((query) => [query]))('%s reads what it would read with only their namespaces in Prometheus', async (template) => {
    const query = fill(template);
    const answer = await ask(viewer.token, { query, time: now });
    if (answer.status === 403) {
      expect(answer.body).toMatchObject({ code: 'FORBIDDEN', details: { reason: expect.stringMatching(/namespace_not_visible|no_namespaces/) } });
      expect(query).toMatch(/namespace="/);
      return;
    }
    expect(answer.status, answer.text).toBe(200);
    const truth = await fetch(`${onlyOwn.url}/api/v1/query?${new URLSearchParams({ query, time: String(now) })}`).then((response) => response.json());
    expect(answer.body.resultType).toBe(truth.data.resultType);
    expect(Array.isArray(answer.body.result) ? sorted(answer.body.result) : answer.body.result).toEqual(
      Array.isArray(truth.data.result) ? sorted(truth.data.result) : truth.data.result,
    );
    expect(answer.text).not.toContain(c.name);
    expect(answer.text).not.toContain('kube-system');
    expect(answer.text).not.toContain('kwok-node-0');
  });

  it('sees both own namespaces, and nothing of the denied namespace, the unbound namespace or the nodes', async () => {
    const answer = await ask(viewer.token, { query: 'count by (namespace) (kube_pod_info)', time: now });
    expect(answer.status).toBe(200);
    expect(answer.body.result.map((entry: { metric: { namespace: string } }) => entry.metric.namespace).sort()).toEqual([a.name, b.name].sort());
    const everything = await full.query('count by (namespace) (kube_pod_info)');
    expect(everything.map((entry) => entry.metric.namespace)).toContain(c.name);
  });

  it('refuses a query naming the denied namespace with the contract body, and audits it as a denied query row', async () => {
    const query = `sum(container_memory_working_set_bytes{namespace="${c.name}"})`;
    const answer = await ask(viewer.token, { query });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: expect.any(String), code: 'FORBIDDEN', details: expect.objectContaining({ namespace: c.name }) });
    const audit = await service.api('GET', `/api/audit?user=${viewer.username}&action=query&limit=200`, { token: service.adminToken });
    const row = audit.body.items.find((entry: { details: { query?: string } }) => entry.details.query === query);
    expect(row).toMatchObject({ action: 'query', decision: 'deny', resource: 'prometheus/query', cluster: 'home' });
  });

  it('lets an admin read every namespace and the nodes, and audits the query text', async () => {
    const answer = await ask(service.adminToken, { query: 'count(kube_pod_info) + count(kube_node_info)', time: now });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.result, answer.text).toHaveLength(1);
    expect(Number(answer.body.result[0].value[1])).toBe(5);
    const audit = await service.api('GET', '/api/audit?user=admin&action=query&limit=200', { token: service.adminToken });
    expect(
      audit.body.items.some(
        (entry: { details: { query?: string }; decision: string }) =>
          entry.details.query === 'count(kube_pod_info) + count(kube_node_info)' && entry.decision === 'allow',
      ),
    ).toBe(true);
  });

  it('refuses unparsable queries for everyone, admins too (400 VALIDATION_ERROR)', async () => {
    for (const token of [viewer.token, service.adminToken]) {
      for (const query of ['sum(kube_pod_info', 'kube_pod_info{namespace="x}', 'rate(kube_pod_info)']) {
        const answer = await ask(token, { query });
        expect(answer.status, query).toBe(400);
        expect(answer.body.code).toBe('VALIDATION_ERROR');
      }
    }
  });

  it('answers range queries in Prometheus shape, within the bounds', async () => {
    const range = await ask(viewer.token, { query: 'sum by (namespace) (container_memory_working_set_bytes)', start: now - 600, end: now, step: '60s' });
    expect(range.status).toBe(200);
    expect(range.body.resultType).toBe('matrix');
    expect(range.body.result.map((series: { metric: { namespace: string } }) => series.metric.namespace).sort()).toEqual([a.name, b.name].sort());
    expect(range.body.result[0].values.length).toBe(11);
    const tooMany = await ask(viewer.token, { query: 'up', start: now - 86_400, end: now, step: 1 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details).toMatchObject({ reason: 'too_many_points' });
    const tooLong = await ask(viewer.token, { query: 'up', start: now - 30 * 86_400, end: now, step: 3600 });
    expect(tooLong.body.details).toMatchObject({ reason: 'range_too_long' });
    const halfRange = await ask(viewer.token, { query: 'up', start: now - 60, step: 10 });
    expect(halfRange.status).toBe(400);
  });

  it('says on GET /api/clusters and GET /api/health that history is available, and where', async () => {
    const clusters = await service.api('GET', '/api/clusters', { token: viewer.token });
    expect(clusters.body.items[0].history).toEqual({ available: true, source: 'config', where: full.url });
    const health = await service.api('GET', '/api/health');
    expect(health.body.details.history).toEqual({ status: 'available', source: 'config', where: full.url });
  });

  it('answers 404 for an unknown cluster', async () => {
    const answer = await ask(viewer.token, { query: 'up' }, '?cluster=no-such-cluster');
    expect(answer.status).toBe(404);
  });
});
