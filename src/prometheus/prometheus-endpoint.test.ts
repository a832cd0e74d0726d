import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prometheusSchema } from '../config/prometheus-schema.js';
import { AppError } from '../errors.js';
import { PrometheusSource } from './prometheus-source.js';

/** A real HTTP server standing in for Prometheus' API: it records each request and answers like Prometheus. */
let server: Server;
let url = '';
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
const folder = mkdtempSync(join(tmpdir(), 'pilothouse-prometheus-auth-'));

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', headers: request.headers });
    const query = new URL(request.url ?? '', 'http://x').searchParams.get('query') ?? '';
    response.setHeader('Content-Type', 'application/json');
    if (query === 'broken(') {
      response.statusCode = 400;
      response.end(JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'parse error' }));
      return;
    }
    response.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

const sourceFor = (config: unknown): PrometheusSource =>
  new PrometheusSource({ config: prometheusSchema.parse(config), ownNamespace: 'pilothouse', rest: () => undefined as never, clock: Date.now });

describe('a Prometheus reached at its URL', () => {
  it('sends a bearer token read from its file on every request, under the sub-path', async () => {
    const tokenFile = join(folder, 'token');
    writeFileSync(tokenFile, 'first-token\n');
    const source = sourceFor({ url, path: '/prometheus', auth: { bearer: { file: tokenFile } } });
    await source.call('/api/v1/query', new URLSearchParams({ query: 'up' }));
    writeFileSync(tokenFile, 'rotated-token');
    await source.call('/api/v1/query', new URLSearchParams({ query: 'up' }));
    expect(seen.slice(-2).map((request) => request.headers.authorization)).toEqual(['Bearer first-token', 'Bearer rotated-token']);
    expect(seen.at(-1)?.path).toBe('/prometheus/api/v1/query?query=up');
  });

  it('sends basic credentials, and says where Prometheus is without them', async () => {
    const passwordFile = join(folder, 'password');
    writeFileSync(passwordFile, 's3cret');
    const source = sourceFor({ url, auth: { basic: { username: 'pilothouse', password: { file: passwordFile } } } });
    expect(await source.status()).toEqual({ available: true, source: 'config', where: url });
    expect(seen.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from('pilothouse:s3cret').toString('base64')}`);
  });

  it("maps Prometheus' refusal of a query to VALIDATION_ERROR and an unreachable one to UNAVAILABLE", async () => {
    const refusal = await sourceFor({ url })
      .call('/api/v1/query', new URLSearchParams({ query: 'broken(' }))
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe('VALIDATION_ERROR');
    const down = await sourceFor({ url: 'http://127.0.0.1:1' })
      .call('/api/v1/query', new URLSearchParams({ query: 'up' }))
      .catch((error: unknown) => error);
    expect((down as AppError).code).toBe('UNAVAILABLE');
    expect((down as AppError).details.reason).toBe('prometheus_unreachable');
  });

  it('refuses a config with both a url and a service, or both bearer and basic credentials', () => {
    expect(prometheusSchema.safeParse({ url, service: { namespace: 'm', name: 'p', port: 9090 } }).success).toBe(false);
    expect(prometheusSchema.safeParse({ url, auth: { bearer: { file: 'a' }, basic: { username: 'u', password: { file: 'b' } } } }).success).toBe(false);
  });
});
