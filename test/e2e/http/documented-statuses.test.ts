import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.js';

// Statuses Schemathesis found undocumented: each answer's status is one the OpenAPI document names for that operation.

type Document = {
  paths: Record<string, Record<string, { parameters?: { $ref?: string }[]; responses: Record<string, { content?: Record<string, unknown>; $ref?: string }> }>>;
  components: { responses: Record<string, { content?: Record<string, unknown> }> };
};

let service: TestService;
let document: Document;

beforeAll(async () => {
  service = await startTestService();
  document = (await service.api('GET', '/api/openapi.json')).body as Document;
});

afterAll(async () => {
  await service?.close();
});

const documented = (method: string, path: string): string[] => Object.keys(document.paths[path]?.[method]?.responses ?? {});

describe('statuses the API answers are in the OpenAPI document', () => {
  it('a huge query on the SSO callback is a 431 with the error body, documented (as on every operation)', async () => {
    const response = await fetch(`${service.url}/api/auth/oidc/callback?state=${'s'.repeat(20_000)}&code=c`);
    expect(response.status).toBe(431);
    expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { part: 'headers' } });
    expect(documented('get', '/api/auth/oidc/callback')).toContain('431');
    // Each error answer is said once (components/responses) and referred to.
    expect(document.paths['/api/auth/oidc/callback']?.get?.responses['431']).toEqual({ $ref: '#/components/responses/HeadersTooLarge' });
    expect(document.components.responses.HeadersTooLarge?.content).toHaveProperty('application/json');
    for (const [path, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods)) expect(Object.keys(operation.responses), `${method} ${path}`).toContain('431');
    // The server still answers after refusing it.
    expect((await service.api('GET', '/api/health')).status).toBe(200);
  });

  it('an unknown ?cluster= (the fuzzer sends random names) is a documented 404 naming the cluster, after 401 for a caller without credentials, on every cluster-facing operation', async () => {
    const clusterFacing = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.parameters?.some((parameter) => parameter.$ref === '#/components/parameters/cluster'))
        .map(([method]) => [method, path] as const),
    );
    expect(clusterFacing.length).toBeGreaterThan(20);
    for (const [method, path] of clusterFacing) {
      const concrete = path.replace(/\{[^}]+\}/g, 'x');
      const response = await service.api(method.toUpperCase(), `${concrete}?cluster=zz-no-such-cluster`, {
        token: service.adminToken,
        body: method === 'get' ? undefined : {},
      });
      expect({ operation: `${method} ${path}`, status: response.status }).toEqual({ operation: `${method} ${path}`, status: 404 });
      expect(response.body).toMatchObject({ code: 'NOT_FOUND', details: { cluster: 'zz-no-such-cluster' } });
      // Without credentials it is 401 first, whatever cluster the request names (Schemathesis ST203).
      const anonymous = await service.api(method.toUpperCase(), `${concrete}?cluster=zz-no-such-cluster`, { body: method === 'get' ? undefined : {} });
      expect({ operation: `${method} ${path}`, status: anonymous.status }).toEqual({ operation: `${method} ${path}`, status: 401 });
      expect(documented(method, path), `${method} ${path}`).toEqual(expect.arrayContaining(['404', '503']));
    }
  });

  it('unlocking or locking an unknown user is a documented 404', async () => {
    for (const path of ['/api/admin/unlock', '/api/admin/lock']) {
      const response = await service.api('POST', path, { token: service.adminToken, body: { username: 'nobody-by-this-name' } });
      expect(response.status, path).toBe(404);
      expect(response.body.code, path).toBe('NOT_FOUND');
      expect(documented('post', path), path).toContain('404');
    }
  });
});
