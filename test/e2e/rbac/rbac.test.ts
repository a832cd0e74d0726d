import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const dev = useNamespace('rb-dev');
const prod = useNamespace('rb-prod');
let service: TestService;

beforeAll(async () => {
  for (const namespace of [dev.name, prod.name]) {
    await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'settings', '-n', namespace, '--from-literal=a=b']);
    await runKubectl(clusterKubeconfig(), ['create', 'secret', 'generic', 'creds', '-n', namespace, '--from-literal=password=hunter2']);
    await runKubectl(clusterKubeconfig(), ['create', 'deployment', 'web', '--image=nginx', '-n', namespace]);
  }
  service = await startTestService({
    config: {
      authorization: {
        roles: [
          { name: 'no-prod', resources: ['*'], namespaces: [prod.name], verbs: ['*'], effect: 'deny' },
          { name: 'no-secrets', resources: ['secrets'], namespaces: ['*'], verbs: ['*'], effect: 'deny' },
          { name: 'scale-dev', resources: ['deployments'], namespaces: [dev.name], verbs: ['update'] },
          { name: 'configmaps-everywhere', resources: ['configmaps'], namespaces: [dev.name, prod.name], verbs: ['get', 'list', 'delete'] },
          { name: 'no-default-pods', resources: ['pods'], namespaces: ['default'], verbs: ['*'], effect: 'deny' },
        ],
      },
    },
  });
});
afterAll(async () => {
  await service?.close();
});

const scale = (namespace: string, token: string) => service.api('POST', '/api/deployment/scale', { token, body: { namespace, name: 'web', replicas: 2 } });

describe('the permission matrix', () => {
  it('lets viewers read but refuses their writes and deletes with 403 FORBIDDEN, audited as deny', async () => {
    const viewer = await service.createUser('viewer');
    const list = await service.api('GET', `/api/k8s/configmaps?namespace=${dev.name}`, { token: viewer.token });
    expect(list.status).toBe(200);
    const deleted = await service.api('DELETE', `/api/k8s/configmaps/settings?namespace=${dev.name}`, { token: viewer.token });
    expect(deleted.status).toBe(403);
    expect(deleted.body).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'role' } });
    const scaled = await scale(dev.name, viewer.token);
    expect(scaled.status).toBe(403);
    const audit = await service.api('GET', `/api/audit?user=${viewer.username}&action=execute`, { token: service.adminToken });
    expect(audit.body.total).toBe(2);
    expect(audit.body.items.every((entry: { decision: string }) => entry.decision === 'deny')).toBe(true);
  });

  it('masks Secret data for viewers', async () => {
    const viewer = await service.createUser('viewer');
    const secret = await service.api('GET', `/api/k8s/secrets/creds?namespace=${dev.name}`, { token: viewer.token });
    expect(secret.status).toBe(200);
    expect(secret.body.data.password).toBe('******');
  });

  it('requires an approved access grant for direct writes by role user', async () => {
    const user = await service.createUser('user');
    const scaled = await scale(dev.name, user.token);
    expect(scaled.status).toBe(403);
    expect(scaled.body.details.reason).toBe('approval_required');
    const deleted = await service.api('DELETE', `/api/k8s/configmaps/settings?namespace=${dev.name}`, { token: user.token });
    expect(deleted.body.details.reason).toBe('role');
  });

  it('keeps user management and the audit log admin-only', async () => {
    const user = await service.createUser('user');
    for (const [method, path] of [
      ['GET', '/api/admin/users'],
      ['GET', '/api/audit'],
      ['POST', '/api/admin/lock'],
    ] as const) {
      const response = await service.api(method, path, { token: user.token, body: method === 'POST' ? { username: 'admin' } : undefined });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
  });
});

describe('resource-level roles', () => {
  it('extends a base role where an allow role covers the target, only there', async () => {
    const user = await service.createUser('user', { roles: ['scale-dev'] });
    expect((await scale(dev.name, user.token)).status).toBe(200);
    const elsewhere = await scale(prod.name, user.token);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.details.reason).toBe('approval_required');
  });

  it('lets a deny override an allow that covers the same target (overlap)', async () => {
    const viewer = await service.createUser('viewer', { roles: ['configmaps-everywhere', 'no-prod'] });
    const devDelete = await service.api('DELETE', `/api/k8s/configmaps/settings?namespace=${dev.name}`, { token: viewer.token });
    expect(devDelete.status).toBe(200);
    const prodRead = await service.api('GET', `/api/k8s/configmaps?namespace=${prod.name}`, { token: viewer.token });
    expect(prodRead.status).toBe(403);
    expect(prodRead.body.details.reason).toBe('resource_role');
    const prodDelete = await service.api('DELETE', `/api/k8s/configmaps/settings?namespace=${prod.name}`, { token: viewer.token });
    expect(prodDelete.status).toBe(403);
    expect(prodDelete.body.details.reason).toBe('resource_role');
    const audit = await service.api('GET', `/api/audit?user=${viewer.username}`, { token: service.adminToken });
    expect(audit.body.items.filter((entry: { decision: string }) => entry.decision === 'deny')).toHaveLength(2);
  });

  it('applies denies to admins too', async () => {
    const admin = await service.createUser('admin', { roles: ['no-prod'] });
    const response = await service.api('GET', `/api/k8s/deployments/web?namespace=${prod.name}`, { token: admin.token });
    expect(response.status).toBe(403);
    expect((await service.api('GET', `/api/k8s/deployments/web?namespace=${dev.name}`, { token: admin.token })).status).toBe(200);
  });

  it('omits denied namespaces from a list across all namespaces instead of failing it', async () => {
    const viewer = await service.createUser('viewer', { roles: ['no-prod'] });
    let namespaces: string[] = [];
    await waitFor(async () => {
      const response = await service.api('GET', '/api/k8s/configmaps', { token: viewer.token });
      expect(response.status).toBe(200);
      namespaces = response.body.items.map((item: { namespace: string }) => item.namespace);
      return namespaces.includes(dev.name);
    });
    expect(namespaces).not.toContain(prod.name);
    const unrestricted = await service.api('GET', '/api/k8s/configmaps', { token: service.adminToken });
    expect(unrestricted.body.items.map((item: { namespace: string }) => item.namespace)).toContain(prod.name);
  });

  it('refuses a list across all namespaces when a deny covers every namespace', async () => {
    const viewer = await service.createUser('viewer', { roles: ['no-secrets'] });
    expect((await service.api('GET', '/api/k8s/secrets', { token: viewer.token })).status).toBe(403);
    expect((await service.api('GET', `/api/k8s/secret?namespace=${dev.name}`, { token: viewer.token })).status).toBe(403);
    expect((await service.api('GET', `/api/k8s/configmaps?namespace=${dev.name}`, { token: viewer.token })).status).toBe(200);
  });

  it('decides on the namespace the handler acts on: a namespace smuggled in the query string is refused', async () => {
    const user = await service.createUser('user', { roles: ['scale-dev'] });
    const admin = await service.createUser('admin', { roles: ['no-prod'] });
    for (const token of [user.token, admin.token]) {
      const smuggled = await service.api('POST', `/api/deployment/scale?namespace=${dev.name}`, {
        token,
        body: { namespace: prod.name, name: 'web', replicas: 3 },
      });
      expect(smuggled.status).toBe(400);
      expect(smuggled.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { namespace: expect.any(String) } } });
    }
    const replicas = await runKubectl(clusterKubeconfig(), ['get', 'deployment', 'web', '-n', prod.name, '-o', 'jsonpath={.spec.replicas}']);
    expect(replicas.trim()).toBe('1');
  });

  it('applies denies to the namespace a route defaults to when the request names none', async () => {
    const admin = await service.createUser('admin', { roles: ['no-default-pods'] });
    const logs = await service.api('GET', '/api/pods/anything/logs', { token: admin.token });
    expect(logs.status).toBe(403);
    expect(logs.body).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'resource_role', namespace: 'default' } });
    const ticket = await service.api('POST', '/api/pods/anything/terminal/ticket', { token: admin.token, body: {} });
    expect(ticket.status).toBe(403);
  });

  it('refuses unknown role names on users with 400 naming the field', async () => {
    const response = await service.api('POST', '/api/admin/users', {
      token: service.adminToken,
      body: { username: 'ghost-roles', password: 'long-enough-password', role: 'viewer', roles: ['does-not-exist'] },
    });
    expect(response.status).toBe(400);
    expect(response.body.details.fields.roles).toBeTruthy();
  });
});
