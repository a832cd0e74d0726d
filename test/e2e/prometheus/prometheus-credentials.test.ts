import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName } from '../../helpers/cluster.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Credentials for a Prometheus reached at its URL, read from a Secret of Pilothouse's namespace with the service's
 * own identity (issue 36): the Basic header reaches Prometheus, and neither the password nor the header appear in
 * answers, GET /api/clusters or the audit log. A real HTTP server stands in for Prometheus' API.
 */
const namespace = uniqueName('pc');
const password = `pw-${uniqueName('secret')}`;
let server: Server;
let service: TestService;
const authorizations: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    response.setHeader('Content-Type', 'application/json');
    const ok = request.headers.authorization === `Basic ${Buffer.from(`pilothouse:${password}`).toString('base64')}`;
    response.statusCode = ok ? 200 : 401;
    response.end(
      JSON.stringify(ok ? { status: 'success', data: { resultType: 'vector', result: [] } } : { status: 'error', errorType: 'unauthorized', error: 'no' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await runKubectl(clusterKubeconfig(), ['create', 'namespace', namespace]);
  await runKubectl(clusterKubeconfig(), ['create', 'secret', 'generic', 'prom-basic', '-n', namespace, `--from-literal=password=${password}`]);
  service = await startTestService({
    config: {
      kubernetes: { namespace },
      prometheus: { url, auth: { basic: { username: 'pilothouse', password: { secret: { name: 'prom-basic', key: 'password' } } } } },
    },
  });
}, 120_000);

afterAll(async () => {
  await service?.close();
  await runKubectl(clusterKubeconfig(), ['delete', 'namespace', namespace, '--wait=false']).catch(() => undefined);
  await new Promise((resolve) => server?.close(resolve));
});

describe('Prometheus credentials from a Secret', () => {
  it('sends them to Prometheus and shows them nowhere', async () => {
    const answer = await service.api('POST', '/api/prometheus/query', { token: service.adminToken, body: { query: 'up' } });
    expect(answer.status, answer.text).toBe(200);
    expect(authorizations.at(-1)).toBe(`Basic ${Buffer.from(`pilothouse:${password}`).toString('base64')}`);
    const clusters = await service.api('GET', '/api/clusters', { token: service.adminToken });
    expect(clusters.body.items[0].history).toMatchObject({ available: true, source: 'config' });
    const audit = await service.api('GET', '/api/audit?action=query&limit=50', { token: service.adminToken });
    for (const text of [answer.text, clusters.text, audit.text]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(Buffer.from(`pilothouse:${password}`).toString('base64'));
    }
  });
});
