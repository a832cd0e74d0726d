import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type ApiResponse, type TestService } from '../../helpers/service.js';

const space = useNamespace('apply');
let service: TestService;

const configMap = (color: string): string => `apiVersion: v1
kind: ConfigMap
metadata:
  name: palette
  namespace: ${space.name}
data:
  color: ${color}
`;

async function liveColor(): Promise<string> {
  return runKubectl(clusterKubeconfig(), ['get', 'configmap', 'palette', '-n', space.name, '-o', 'jsonpath={.data.color}']);
}

function applyYamlBody(text: string, query = '', token = service.adminToken): Promise<ApiResponse> {
  return service.api('POST', `/api/k8s/configmaps/apply${query}`, { token, body: text, headers: { 'Content-Type': 'application/yaml' } });
}

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.close();
});

describe('POST /api/k8s/{resource}/apply (server-side apply)', () => {
  it('creates from YAML, then changes the object; a dry run changes nothing', async () => {
    const created = await applyYamlBody(configMap('blue'));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ created: true, dryRun: false, object: { data: { color: 'blue' } } });
    expect(await liveColor()).toBe('blue');

    const dry = await applyYamlBody(configMap('green'), '?dryRun=true');
    expect(dry.status).toBe(200);
    expect(dry.body.dryRun).toBe(true);
    expect(dry.body.yaml).toContain('color: green');
    expect(dry.body.yaml).not.toContain('managedFields');
    expect(await liveColor()).toBe('blue');

    const json = JSON.parse(
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'palette', namespace: space.name }, data: { color: 'red' } }),
    );
    const applied = await service.api('POST', '/api/k8s/configmaps/apply?dryRun=false', { token: service.adminToken, body: json });
    expect(applied.status).toBe(200);
    expect(applied.body.created).toBe(false);
    expect(await liveColor()).toBe('red');
    const managers = await runKubectl(clusterKubeconfig(), [
      'get',
      'configmap',
      'palette',
      '-n',
      space.name,
      '--show-managed-fields',
      '-o',
      'jsonpath={.metadata.managedFields[*].manager}',
    ]);
    expect(managers).toContain('pilothouse');
  });

  it('audits applies with the kubectl line', async () => {
    const audit = await service.api('GET', '/api/audit?user=admin&action=execute&limit=1000', { token: service.adminToken });
    expect(audit.status).toBe(200);
    const commands = audit.body.items
      .filter((entry: { resource: string }) => entry.resource === 'configmap/palette')
      .map((entry: { details: { command: string } }) => entry.details.command);
    expect(commands.some((command: string) => command.includes('apply --server-side') && command.includes('--dry-run=server'))).toBe(true);
    expect(commands.some((command: string) => command.includes('apply --server-side') && !command.includes('--dry-run'))).toBe(true);
  });

  it('answers a field owned by another manager with 409 naming the field and the manager; force takes it over', async () => {
    await applyYaml(clusterKubeconfig(), `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: owned}\ndata: {size: small}\n`, space.name);
    await runKubectl(clusterKubeconfig(), [
      'patch',
      'configmap',
      'owned',
      '-n',
      space.name,
      '--field-manager',
      'someone-else',
      '-p',
      '{"data":{"size":"large"}}',
    ]);
    const body = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: owned, namespace: ${space.name}}\ndata: {size: medium}\n`;
    const conflict = await applyYamlBody(body);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('CONFLICT');
    expect(conflict.body.details.reason).toBe('conflict');
    expect(conflict.body.details.conflicts).toContainEqual(expect.objectContaining({ field: '.data.size', manager: 'someone-else' }));
    const forced = await applyYamlBody(body, '?force=true');
    expect(forced.status).toBe(200);
    expect(forced.body.object.data.size).toBe('medium');
  });

  it('refuses viewers with 403, audited as deny', async () => {
    const viewer = await service.createUser('viewer');
    const refused = await applyYamlBody(configMap('black'), '?dryRun=true', viewer.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const audit = await service.api('GET', `/api/audit?user=${viewer.username}&action=execute`, { token: service.adminToken });
    expect(audit.body.items.some((entry: { decision: string }) => entry.decision === 'deny')).toBe(true);
    expect(await liveColor()).toBe('red');
  });

  it("asks users for an approved access request, decided on the object's namespace", async () => {
    const user = await service.createUser('user');
    const refused = await applyYamlBody(configMap('white'), '', user.token);
    expect(refused.status).toBe(403);
    expect(refused.body.details.reason).toBe('approval_required');
    expect(await liveColor()).toBe('red');

    // A grant for this namespace and kind lets the same apply through; the namespace is read from the manifest.
    const body = { permission: 'execute_write', namespaces: [space.name], resources: ['configmaps'], reason: 'edit palette', ttl: '1h' };
    const asked = await service.api('POST', '/api/access-requests', { token: user.token, body });
    expect(asked.status).toBe(201);
    const approved = await service.api('POST', `/api/access-requests/${asked.body.id}/approve`, { token: service.adminToken, body: {} });
    expect(approved.status).toBe(200);
    const applied = await applyYamlBody(configMap('white'), '?force=true', user.token);
    expect(applied.status).toBe(200);
    expect(await liveColor()).toBe('white');
    const elsewhere = await applyYamlBody(configMap('white').replace(`namespace: ${space.name}`, 'namespace: default'), '?dryRun=true', user.token);
    expect(elsewhere.status).toBe(403);
  });

  it('answers bad YAML, a wrong kind and a missing name with 400', async () => {
    const broken = await applyYamlBody('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [oops\n');
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('VALIDATION_ERROR');
    expect(broken.body.details.line).toBeGreaterThan(0);
    const wrongKind = await applyYamlBody(`apiVersion: v1\nkind: Secret\nmetadata: {name: x, namespace: ${space.name}}\n`);
    expect(wrongKind.status).toBe(400);
    const nameless = await service.api('POST', '/api/k8s/configmaps/apply', {
      token: service.adminToken,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} },
    });
    expect(nameless.status).toBe(400);
  });

  it("serves the kind's OpenAPI schema for the editor", async () => {
    const schema = await service.api('GET', '/api/schemas/deployments', { token: service.adminToken });
    expect(schema.status).toBe(200);
    expect(schema.body.root).toBe('io.k8s.api.apps.v1.Deployment');
    expect(schema.body.schemas['io.k8s.api.apps.v1.DeploymentSpec']).toBeDefined();
  });
});
