import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const workspace = useNamespace('imp');
let service: TestService;

/** Service accounts for the role mappings: viewer and admin may only read; the user account may also scale. */
function rbacYaml(namespace: string): string {
  const account = (name: string) => `apiVersion: v1
kind: ServiceAccount
metadata: {name: ${name}, namespace: ${namespace}}
`;
  const role = (name: string, rules: string) => `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: ${name}, namespace: ${namespace}}
rules:
${rules}`;
  const binding = (name: string) => `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: ${name}, namespace: ${namespace}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ${name}}
subjects: [{kind: ServiceAccount, name: ${name}, namespace: ${namespace}}]
`;
  const read = `- {apiGroups: ["", "apps"], resources: [configmaps, deployments, pods], verbs: [get, list, watch]}
`;
  const scale = `- {apiGroups: [apps], resources: [deployments, deployments/scale], verbs: [get, list, watch, patch, update]}
`;
  return [
    account('ph-viewer'),
    role('ph-viewer', read),
    binding('ph-viewer'),
    account('ph-admin'),
    role('ph-admin', read),
    binding('ph-admin'),
    account('ph-user'),
    role('ph-user', read + scale),
    binding('ph-user'),
  ].join('---\n');
}

beforeAll(async () => {
  const namespace = workspace.name;
  await applyYaml(clusterKubeconfig(), rbacYaml(namespace));
  await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'settings', '-n', namespace, '--from-literal=a=b']);
  await runKubectl(clusterKubeconfig(), ['create', 'secret', 'generic', 'creds', '-n', namespace, '--from-literal=password=hunter2']);
  await runKubectl(clusterKubeconfig(), ['create', 'deployment', 'web', '--image=nginx', '-n', namespace]);
  const identity = (name: string) => `system:serviceaccount:${namespace}:${name}`;
  service = await startTestService({
    config: {
      authorization: {
        impersonation: { enabled: true, mappings: { viewer: identity('ph-viewer'), user: identity('ph-user'), admin: identity('ph-admin') } },
        roles: [{ name: 'scale-here', resources: ['deployments'], namespaces: [namespace], verbs: ['update'] }],
      },
    },
  });
});
afterAll(async () => {
  await service?.close();
});

describe('impersonation toward the cluster', () => {
  it('lets the mapped identities read what their RBAC allows', async () => {
    const viewer = await service.createUser('viewer');
    for (const token of [viewer.token, service.adminToken]) {
      const object = await service.api('GET', `/api/k8s/configmaps/settings?namespace=${workspace.name}`, { token });
      expect(object.status).toBe(200);
      expect(object.body.data).toEqual({ a: 'b' });
      const list = await service.api('GET', `/api/k8s/deployments?namespace=${workspace.name}`, { token });
      expect(list.status).toBe(200);
      expect(list.body.items.map((item: { name: string }) => item.name)).toContain('web');
    }
  });

  it('refuses, through the API server, a delete our own RBAC allows the admin (403, audited as deny)', async () => {
    const response = await service.api('DELETE', `/api/k8s/configmaps/settings?namespace=${workspace.name}`, { token: service.adminToken });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('FORBIDDEN');
    expect(response.body.error).toContain('system:serviceaccount');
    const audit = await service.api('GET', '/api/audit?user=admin&action=execute&limit=1', { token: service.adminToken });
    expect(audit.body.items[0]).toMatchObject({
      decision: 'deny',
      resource: 'configmap/settings',
      details: { command: expect.stringContaining('kubectl delete configmaps settings') },
    });
    await runKubectl(clusterKubeconfig(), ['get', 'configmap', 'settings', '-n', workspace.name]);
  });

  it('refuses a scale by the admin whose mapped identity may only read, and allows it for the user identity that may scale', async () => {
    const adminScale = await service.api('POST', '/api/deployment/scale', {
      token: service.adminToken,
      body: { namespace: workspace.name, name: 'web', replicas: 3 },
    });
    expect(adminScale.status).toBe(403);
    expect(adminScale.body.code).toBe('FORBIDDEN');
    const user = await service.createUser('user', { roles: ['scale-here'] });
    const userScale = await service.api('POST', '/api/deployment/scale', { token: user.token, body: { namespace: workspace.name, name: 'web', replicas: 2 } });
    expect(userScale.status).toBe(200);
    const replicas = await runKubectl(clusterKubeconfig(), ['get', 'deployment', 'web', '-n', workspace.name, '-o', 'jsonpath={.spec.replicas}']);
    expect(replicas).toBe('2');
  });

  it('refuses reads outside the mapped identity RBAC (secrets)', async () => {
    const viewer = await service.createUser('viewer');
    const response = await service.api('GET', `/api/k8s/secrets/creds?namespace=${workspace.name}`, { token: viewer.token });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('FORBIDDEN');
  });
});
