import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService;
let publicService: TestService;

beforeAll(async () => {
  [service, publicService] = await Promise.all([startTestService(), startTestService({ config: { metrics: { public: true } } })]);
});

afterAll(async () => {
  await Promise.all([service?.close(), publicService?.close()]);
});

function promtoolAvailable(): boolean {
  return spawnSync('promtool', ['--version']).status === 0;
}

describe('/metrics', () => {
  it('needs a token unless metrics.public is set', async () => {
    expect((await service.api('GET', '/metrics')).status).toBe(401);
    expect((await publicService.api('GET', '/metrics')).status).toBe(200);
  });

  it('exposes request durations by route template, cluster call durations and cache sizes', async () => {
    await service.api('GET', '/api/k8s/namespaces', { token: service.adminToken });
    const response = await service.api('GET', '/metrics', { token: service.adminToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(response.text).toMatch(/pilothouse_http_request_duration_seconds_count\{method="GET",route="\/api\/k8s\/:resource",status="200"\} [1-9]/);
    expect(response.text).toMatch(/pilothouse_kube_request_duration_seconds_count\{verb="get",cluster="home"\} [1-9]/);
    expect(response.text).toMatch(/pilothouse_cache_objects\{resource="namespaces",cluster="home"\} [1-9]/);
    // The home cluster's reachability probe runs on its own timer from the start.
    await expect
      .poll(async () => (await service.api('GET', '/metrics', { token: service.adminToken })).text)
      .toMatch(/pilothouse_cluster_up\{cluster="home"\} 1/);
    expect(response.text).toContain('pilothouse_process_resident_memory_bytes');
  });

  it.runIf(promtoolAvailable())('passes promtool check metrics', async () => {
    const response = await service.api('GET', '/metrics', { token: service.adminToken });
    const check = spawnSync('promtool', ['check', 'metrics'], { input: response.text });
    expect(check.stderr.toString() + check.stdout.toString()).not.toMatch(/error/i);
    expect(check.status).toBe(0);
  });
});

describe('/api/openapi.json', () => {
  it('describes every route with its permission', async () => {
    const { status, body } = await service.api('GET', '/api/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.paths['/api/k8s/{resource}'].get['x-permission']).toBe('view');
    expect(body.paths['/api/k8s/{resource}/{name}'].delete['x-permission']).toBe('delete');
    expect(body.paths['/api/health'].get.security).toEqual([]);
    const listParameters = body.paths['/api/k8s/{resource}'].get.parameters.map(
      (parameter: { name?: string; $ref?: string }) => parameter.name ?? parameter.$ref,
    );
    expect(listParameters).toEqual(['resource', 'namespace', 'labelSelector', 'limit', 'continue', 'sortBy', '#/components/parameters/cluster']);
    // Said once: the cluster parameter is a shared component, on cluster-facing operations only.
    expect(body.components.parameters.cluster).toMatchObject({ name: 'cluster', in: 'query', required: false });
    expect(body.paths['/api/auth/me'].get.parameters).not.toContainEqual({ $ref: '#/components/parameters/cluster' });
    expect(body.paths['/api/pods/{name}/terminal'].get.parameters).toContainEqual({ $ref: '#/components/parameters/cluster' });
  });
});
