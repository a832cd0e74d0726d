import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * The permission matrix on the operations and MCP endpoints: viewers never change anything,
 * role `user` needs an approved access request for direct writes, deletes and MCP server
 * changes are admin only. Every refusal is in the contract's error body and audited as deny.
 */
const namespace = useNamespace('perm');
let service: TestService;
let viewer: string;
let user: string;

beforeAll(async () => {
  service = await startTestService();
  viewer = (await service.createUser('viewer')).token;
  user = (await service.createUser('user')).token;
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: guarded}
spec:
  replicas: 1
  selector: {matchLabels: {app: guarded}}
  template:
    metadata: {labels: {app: guarded}}
    spec: {containers: [{name: app, image: nginx}]}
`,
    namespace.name,
  );
});

afterAll(async () => {
  await service?.close();
});

function writes(): [string, string, unknown][] {
  const ns = namespace.name;
  return [
    ['POST', '/api/deployment/scale', { namespace: ns, name: 'guarded', replicas: 2 }],
    ['POST', '/api/deployment/restart', { namespace: ns, name: 'guarded' }],
    ['POST', '/api/deployment/rollback', { namespace: ns, name: 'guarded', revision: 0 }],
    ['POST', '/api/node/cordon', { name: 'kwok-node-0' }],
    ['POST', '/api/node/drain', { name: 'kwok-node-0', ignoreDaemonSets: true, deleteLocalData: false, force: false }],
    ['POST', '/api/pods/any/exec', { namespace: ns, container: 'app', command: ['true'] }],
    ['POST', '/api/portforward', { namespace: ns, pod: 'any', localPort: 0, podPort: 80 }],
    ['POST', '/api/helm/install', { name: 'x', namespace: ns, chart: 'repo/x', repo: 'http://127.0.0.1:1', values: {} }],
  ];
}

describe('permission matrix on operations', () => {
  it('refuses every write to a viewer with 403 FORBIDDEN (reason role)', async () => {
    for (const [method, path, body] of writes()) {
      const response = await service.api(method, path, { token: viewer, body });
      expect(response.status, path).toBe(403);
      expect(response.body.code, path).toBe('FORBIDDEN');
      expect(response.body.details.reason, path).toBe('role');
    }
  });

  it('asks role user for an approved access request before a direct write', async () => {
    for (const [method, path, body] of writes()) {
      const response = await service.api(method, path, { token: user, body });
      expect(response.status, path).toBe(403);
      expect(response.body.details.reason, path).toBe('approval_required');
    }
  });

  it('keeps deletes admin only and lets everyone read', async () => {
    for (const token of [viewer, user]) {
      const deleted = await service.api('DELETE', `/api/k8s/deployments/guarded?namespace=${namespace.name}`, { token });
      expect(deleted.status).toBe(403);
      const listed = await service.api('GET', `/api/k8s/deployments?namespace=${namespace.name}`, { token });
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((item: { name: string }) => item.name)).toEqual(['guarded']);
    }
  });

  it('records the refusals in the audit log as deny', async () => {
    const audit = await service.api('GET', '/api/audit?limit=1000', { token: service.adminToken });
    const denied = audit.body.items.filter(
      (entry: { decision: string; details: { path?: string } }) => entry.decision === 'deny' && entry.details.path === '/api/deployment/scale',
    );
    expect(denied.length).toBeGreaterThanOrEqual(2);
  });
});

describe('MCP server management is admin only', () => {
  it('lets viewers list servers and refuses changes to viewer and user', async () => {
    expect((await service.api('GET', '/api/mcp/servers', { token: viewer })).status).toBe(200);
    const server = { name: 'sneaky', command: '/bin/sh', args: ['-c', 'id'], enabled: true };
    for (const token of [viewer, user]) {
      expect((await service.api('POST', '/api/mcp/servers', { token, body: server })).status).toBe(403);
      expect((await service.api('PATCH', '/api/mcp/servers/sneaky', { token, body: { enabled: false } })).status).toBe(403);
      expect((await service.api('DELETE', '/api/mcp/servers/sneaky', { token })).status).toBe(403);
    }
    const listed = await service.api('GET', '/api/mcp/servers', { token: service.adminToken });
    expect(listed.body.items.map((item: { name: string }) => item.name)).not.toContain('sneaky');
  });
});
