import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { deploymentYaml } from '../../helpers/manifests.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { ApiClient } from '../../../src/tui/api/client.js';
import { PilothouseApi } from '../../../src/tui/api/pilothouse-api.js';
import { ApiError } from '@pilothouse/wire/wire-client';
import { LiveRows } from '../../../src/tui/api/live-rows.js';
import type { Row } from '../../../src/tui/api/types.js';

// The routes the terminal UI added (GET /api/k8s; its edit is the web editor's apply) and its API client
// (token refresh, 401 → sign in again, live rows) against the real service and cluster.

const namespace = useNamespace('tui-api');
/** A manual clock: the service's and the client's time, moved instead of slept. */
const clock = { now: Date.now() };
let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    clock: () => clock.now,
    config: { authorization: { jwt: { token_duration: '1h', refresh_window: '15m', max_session: '8h' } } },
  });
  await applyYaml(clusterKubeconfig(), deploymentYaml('web'), namespace.name);
  // Settled first: a controller's status update between the GET and the apply below would be a (real) conflict.
  await runKubectl(clusterKubeconfig(), ['rollout', 'status', 'deployment/web', '-n', namespace.name, '--timeout=120s']);
});

afterAll(async () => {
  await service?.close();
});

const replicas = (): Promise<string> => runKubectl(clusterKubeconfig(), ['get', 'deployment', 'web', '-n', namespace.name, '-o', 'jsonpath={.spec.replicas}']);

describe('GET /api/k8s', () => {
  it('lists the kinds the cluster serves with their short names, CRDs included', async () => {
    const answer = await service.api('GET', '/api/k8s', { token: service.adminToken });
    expect(answer.status).toBe(200);
    const byName = new Map<string, any>(answer.body.items.map((item: any) => [item.name, item]));
    expect(byName.get('pods')).toMatchObject({ kind: 'Pod', group: '', shortNames: ['po'], namespaced: true });
    expect(byName.get('deployments.apps')).toMatchObject({ kind: 'Deployment', shortNames: ['deploy'] });
    expect(byName.get('nodes')).toMatchObject({ namespaced: false });
    expect([...byName.keys()].some((name) => name.endsWith('.pilothouse.dev'))).toBe(true);
    expect((await service.api('GET', '/api/k8s')).status).toBe(401);
  });
});

describe("the terminal UI's edit: a server-side apply through POST /api/k8s/{resource}/apply", () => {
  const api = (): PilothouseApi => new PilothouseApi(new ApiClient(service.url, { session: { token: service.adminToken } }));
  const failureOf = (work: Promise<unknown>): Promise<ApiError> =>
    work.then(() => expect.unreachable('the write passed')).catch((error: unknown) => error as ApiError);

  it('dry-runs an edited object, names the fields other managers own, applies with force, and a stale copy answers 409 CONFLICT', async () => {
    const object = (await service.api('GET', `/api/k8s/deployments/web?namespace=${namespace.name}`, { token: service.adminToken })).body;
    object.spec.replicas = 3;
    // kubectl apply (client side) owns .spec.replicas: the dry run names it, the question the TUI asks before forcing.
    const owned = await failureOf(api().apply('deployments', object, { dryRun: true, force: false }));
    expect(owned.status).toBe(409);
    expect(owned.code).toBe('CONFLICT');
    expect(owned.details.conflicts).toContainEqual(expect.objectContaining({ field: '.spec.replicas', manager: 'kubectl-client-side-apply' }));
    expect(await api().apply('deployments', object, { dryRun: true, force: true })).toMatchObject({ dryRun: true, created: false });
    expect(await replicas()).toBe('1');
    expect(await api().apply('deployments', object, { dryRun: false, force: true })).toMatchObject({ dryRun: false });
    expect(await replicas()).toBe('3');
    // The same copy again carries the resourceVersion it was read at, which the object no longer has: force does not help.
    object.spec.replicas = 2;
    const stale = await failureOf(api().apply('deployments', object, { dryRun: false, force: true }));
    expect(stale).toBeInstanceOf(ApiError);
    expect(stale.status).toBe(409);
    expect(stale.code).toBe('CONFLICT');
    expect(stale.details).toMatchObject({ reason: 'conflict', kubeReason: 'Conflict', conflicts: [] });
    expect(await replicas()).toBe('3');
  });

  it('refuses a Secret whose values are still the mask a read showed; the stored value stays', async () => {
    await runKubectl(clusterKubeconfig(), ['create', 'secret', 'generic', 'edited', '--from-literal=password=hunter2', '-n', namespace.name]);
    const viewer = await service.createUser('viewer');
    const read = await service.api('GET', `/api/k8s/secrets/edited?namespace=${namespace.name}`, { token: viewer.token });
    expect(read.status).toBe(200);
    const object = { ...read.body, metadata: { ...read.body.metadata, labels: { edited: 'yes' } } };
    const refused = await failureOf(api().apply('secrets', object, { dryRun: true, force: false }));
    expect(refused.status).toBe(400);
    expect(refused.code).toBe('VALIDATION_ERROR');
    expect(refused.details).toMatchObject({ fields: { data: 'masked' } });
    const stored = await runKubectl(clusterKubeconfig(), ['get', 'secret', 'edited', '-n', namespace.name, '-o', 'jsonpath={.data.password}']);
    expect(Buffer.from(stored, 'base64').toString()).toBe('hunter2');
  });

  it('has no second write path: PUT on an object is not a route', async () => {
    const object = (await service.api('GET', `/api/k8s/deployments/web?namespace=${namespace.name}`, { token: service.adminToken })).body;
    const put = await service.api('PUT', '/api/k8s/deployments/web', { token: service.adminToken, body: { namespace: namespace.name, object } });
    expect(put.status).toBe(405);
    const openapi = await service.api('GET', '/api/openapi.json', { token: service.adminToken });
    expect(openapi.body.paths['/api/k8s/{resource}/{name}']?.put).toBeUndefined();
  });
});

describe("the terminal UI's API client", () => {
  it('hands over live rows: a snapshot, then the changes', async () => {
    const client = new ApiClient(service.url, { session: { token: service.adminToken } });
    const seen: Row[][] = [];
    const live = new LiveRows(client, { resource: 'deployments', namespace: namespace.name }, { rows: (rows) => seen.push(rows), error: () => undefined });
    live.start();
    try {
      await expect.poll(() => seen.at(-1)?.map((row) => row.name), { timeout: 20_000 }).toEqual(['web']);
      await applyYaml(clusterKubeconfig(), deploymentYaml('api'), namespace.name);
      await expect
        .poll(
          () =>
            seen
              .at(-1)
              ?.map((row) => row.name)
              .sort(),
          { timeout: 20_000 },
        )
        .toEqual(['api', 'web']);
    } finally {
      live.stop();
    }
  });

  it('answers errors as ApiError with the code and details of the contract', async () => {
    const api = new PilothouseApi(new ApiClient(service.url, { session: { token: service.adminToken } }));
    const failure = await api.describe({ resource: 'nosuchkinds', name: 'x', namespace: 'default' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(404);
    expect((failure as ApiError).line).toMatch(/^NOT_FOUND: /);
  });

  it('refreshes the token inside the refresh window, and a 401 asks to sign in again', async () => {
    const login = await service.api('POST', '/api/auth/login', { body: { username: 'admin', password: 'admin-password-for-tests' } });
    const session = { token: login.body.token as string, expiresAt: Date.parse(login.body.expires_at) };
    let signIns = 0;
    const client = new ApiClient(service.url, {
      session,
      now: () => clock.now,
      signIn: async () => {
        signIns += 1;
        const again = await service.api('POST', '/api/auth/login', { body: { username: 'admin', password: 'admin-password-for-tests' } });
        return { token: again.body.token, expiresAt: Date.parse(again.body.expires_at) };
      },
    });
    const api = new PilothouseApi(client);
    expect((await api.me()).username).toBe('admin');
    expect(client.token).toBe(session.token);

    clock.now = session.expiresAt - 10 * 60_000; // inside the 15-minute window
    await api.health();
    expect(client.token).not.toBe(session.token);
    expect((await api.me()).username).toBe('admin');

    const ended = await service.api('DELETE', '/api/admin/users/admin/sessions', { token: service.adminToken });
    expect(ended.status).toBe(200);
    expect((await api.me()).username).toBe('admin');
    expect(signIns).toBe(1);
  });
});
