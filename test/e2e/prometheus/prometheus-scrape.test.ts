import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNamespace, waitFor } from '../../helpers/cluster.js';
import { samplesUntil, startPrometheus, type RunningPrometheus } from '../../helpers/prometheus.js';
import { startTestService, type ApiResponse, type TestService } from '../../helpers/service.js';
import { freePort } from '../../helpers/slapd.js';

/**
 * A real Prometheus scraping Pilothouse's own /metrics live (issue 36): its series carry no namespace label, so an
 * admin reads them through POST /api/prometheus/query while a viewer whom a deny role keeps from listing nodes reads
 * none of them, and still reads the namespaced series.
 */
const team = useNamespace('ps-team');
const now = Math.floor(Date.now() / 1000);
let prometheus: RunningPrometheus;
let service: TestService;
let viewer: { token: string };

const ask = (token: string, query: string): Promise<ApiResponse> => service.api('POST', '/api/prometheus/query', { token, body: { query } });

beforeAll(async () => {
  const port = await freePort();
  service = await startTestService({
    config: {
      prometheus: { url: `http://127.0.0.1:${port}` },
      metrics: { public: true },
      authorization: { roles: [{ name: 'no-nodes', resources: ['nodes'], verbs: ['*'], effect: 'deny' }] },
    },
  });
  prometheus = await startPrometheus({
    port,
    series: [{ name: 'kube_pod_info', labels: { namespace: team.name, pod: 'web-0' }, samples: samplesUntil(now, 600, 30, () => 1) }],
    scrape: [{ target: new URL(service.url).host }],
  });
  viewer = await service.createUser('viewer', { roles: ['no-nodes'] });
}, 120_000);

afterAll(async () => {
  await service?.close();
  await prometheus?.stop();
});

describe("Pilothouse's own metrics, scraped live", () => {
  it('are read by an admin and not by a viewer who may not list nodes', async () => {
    const query = 'sum(pilothouse_http_request_duration_seconds_count)';
    await waitFor(async () => ((await ask(service.adminToken, query)).body.result ?? []).length === 1, 60_000, 500);
    const admin = await ask(service.adminToken, 'up');
    expect(admin.body.result.map((sample: { value: [number, string] }) => sample.value[1])).toEqual(['1']);
    const mine = await ask(viewer.token, query);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.result).toEqual([]);
    expect((await ask(viewer.token, 'up')).body.result).toEqual([]);
    const pods = await ask(viewer.token, `kube_pod_info{namespace="${team.name}"}`);
    expect(pods.body.result).toHaveLength(1);
    const refused = await ask(viewer.token, 'up{namespace=""}');
    expect(refused.status).toBe(403);
  });
});
