import { request } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '../../../../src/config/schema.js';
import { dryRunResources, dryRunSubresources } from '../../../../src/rbac/dry-run-table.js';
import { findBinary } from '../../../../src/tools/binaries.js';
import { runProcess } from '../../../../src/tools/builtin/process-runner.js';
import type { ToolMode } from '../../../../src/tools/types.js';
import { clusterKubeconfig, uniqueName, useNamespace } from '../../../helpers/cluster.js';
import { chat } from '../../../helpers/chat-stream.js';
import { applyYaml, runKubectl, tryKubectl } from '../../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../../helpers/service.js';

// Issue 23, findings 1, 9 and 18: "dryRun=All" is a read only where the API server honours it,
// `kubectl --raw` is never a dry run, and paths the API server would read differently are refused.
const namespace = useNamespace('dry');
const scratch = mkdtempSync(join(tmpdir(), 'pilothouse-dry-run-'));
let service: TestService;
let wire: LlmWireServer;

const container = { name: 'app', image: 'busybox' };
const template = { metadata: { labels: { app: 'dry' } }, spec: { containers: [container] } };
const selector = { matchLabels: { app: 'dry' } };

/** A valid body per table entry (group/plural → version, scope, body); every table entry must have one. */
const fixtures: Record<string, { kind: string; version: string; namespaced: boolean; body: Record<string, unknown> }> = {
  '/configmaps': { kind: 'ConfigMap', version: 'v1', namespaced: true, body: { data: { a: 'b' } } },
  '/endpoints': { kind: 'Endpoints', version: 'v1', namespaced: true, body: {} },
  '/limitranges': { kind: 'LimitRange', version: 'v1', namespaced: true, body: { spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } } },
  '/namespaces': { kind: 'Namespace', version: 'v1', namespaced: false, body: {} },
  '/persistentvolumeclaims': {
    kind: 'PersistentVolumeClaim',
    version: 'v1',
    namespaced: true,
    body: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
  },
  '/pods': { kind: 'Pod', version: 'v1', namespaced: true, body: { spec: { containers: [container] } } },
  '/podtemplates': { kind: 'PodTemplate', version: 'v1', namespaced: true, body: { template } },
  '/replicationcontrollers': { kind: 'ReplicationController', version: 'v1', namespaced: true, body: { spec: { selector: { app: 'dry' }, template } } },
  '/resourcequotas': { kind: 'ResourceQuota', version: 'v1', namespaced: true, body: { spec: { hard: { pods: '1' } } } },
  '/secrets': { kind: 'Secret', version: 'v1', namespaced: true, body: { stringData: { a: 'b' } } },
  '/serviceaccounts': { kind: 'ServiceAccount', version: 'v1', namespaced: true, body: {} },
  '/services': { kind: 'Service', version: 'v1', namespaced: true, body: { spec: { ports: [{ port: 80 }] } } },
  'apps/controllerrevisions': { kind: 'ControllerRevision', version: 'v1', namespaced: true, body: { revision: 1, data: {} } },
  'apps/daemonsets': { kind: 'DaemonSet', version: 'v1', namespaced: true, body: { spec: { selector, template } } },
  'apps/deployments': { kind: 'Deployment', version: 'v1', namespaced: true, body: { spec: { selector, template } } },
  'apps/replicasets': { kind: 'ReplicaSet', version: 'v1', namespaced: true, body: { spec: { selector, template } } },
  'apps/statefulsets': { kind: 'StatefulSet', version: 'v1', namespaced: true, body: { spec: { selector, template, serviceName: 'dry' } } },
  'autoscaling/horizontalpodautoscalers': {
    kind: 'HorizontalPodAutoscaler',
    version: 'v2',
    namespaced: true,
    body: { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 2 } },
  },
  'batch/cronjobs': {
    kind: 'CronJob',
    version: 'v1',
    namespaced: true,
    body: { spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [container], restartPolicy: 'Never' } } } } } },
  },
  'batch/jobs': { kind: 'Job', version: 'v1', namespaced: true, body: { spec: { template: { spec: { containers: [container], restartPolicy: 'Never' } } } } },
  'coordination.k8s.io/leases': { kind: 'Lease', version: 'v1', namespaced: true, body: { spec: { holderIdentity: 'dry' } } },
  'discovery.k8s.io/endpointslices': { kind: 'EndpointSlice', version: 'v1', namespaced: true, body: { addressType: 'IPv4', endpoints: [] } },
  'networking.k8s.io/ingressclasses': { kind: 'IngressClass', version: 'v1', namespaced: false, body: { spec: { controller: 'example.com/dry' } } },
  'networking.k8s.io/ingresses': {
    kind: 'Ingress',
    version: 'v1',
    namespaced: true,
    body: { spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } },
  },
  'networking.k8s.io/networkpolicies': { kind: 'NetworkPolicy', version: 'v1', namespaced: true, body: { spec: { podSelector: {} } } },
  'policy/poddisruptionbudgets': { kind: 'PodDisruptionBudget', version: 'v1', namespaced: true, body: { spec: { minAvailable: 1, selector } } },
  'rbac.authorization.k8s.io/clusterrolebindings': {
    kind: 'ClusterRoleBinding',
    version: 'v1',
    namespaced: false,
    body: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', name: 'mallory' }] },
  },
  'rbac.authorization.k8s.io/clusterroles': { kind: 'ClusterRole', version: 'v1', namespaced: false, body: { rules: [] } },
  'rbac.authorization.k8s.io/rolebindings': {
    kind: 'RoleBinding',
    version: 'v1',
    namespaced: true,
    body: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' }, subjects: [{ kind: 'User', name: 'mallory' }] },
  },
  'rbac.authorization.k8s.io/roles': { kind: 'Role', version: 'v1', namespaced: true, body: { rules: [] } },
  'scheduling.k8s.io/priorityclasses': { kind: 'PriorityClass', version: 'v1', namespaced: false, body: { value: 1000 } },
  'storage.k8s.io/storageclasses': { kind: 'StorageClass', version: 'v1', namespaced: false, body: { provisioner: 'example.com/dry' } },
};

/** Subresource proofs: the kind to patch, the patch (sent with --dry-run=server) and the field that must stay as it was. */
const subresourceFixtures: Record<string, { kind: string; name: string; patch: unknown; field: string }> = {
  '/pods/status': { kind: 'pod', name: 'victim', patch: { status: { message: 'dry-run-was-persisted' } }, field: '{.status.message}' },
  '/replicationcontrollers/scale': { kind: 'replicationcontroller', name: 'web', patch: { spec: { replicas: 7 } }, field: '{.spec.replicas}' },
  'apps/deployments/scale': { kind: 'deployment', name: 'web', patch: { spec: { replicas: 7 } }, field: '{.spec.replicas}' },
  'apps/deployments/status': { kind: 'deployment', name: 'web', patch: { status: { observedGeneration: 77 } }, field: '{.status.observedGeneration}' },
  'apps/replicasets/scale': { kind: 'replicaset', name: 'web', patch: { spec: { replicas: 7 } }, field: '{.spec.replicas}' },
  'apps/statefulsets/scale': { kind: 'statefulset', name: 'web', patch: { spec: { replicas: 7 } }, field: '{.spec.replicas}' },
};

const collectionPath = (key: string, version: string, namespaced: boolean): string => {
  const [group, plural] = key.split('/') as [string, string];
  const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  return namespaced ? `${prefix}/namespaces/${namespace.name}/${plural}` : `${prefix}/${plural}`;
};

const kubectlAdmin = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), args);
const field = (kind: string, name: string, path: string): Promise<string> => kubectlAdmin('get', kind, name, '-n', namespace.name, '-o', `jsonpath=${path}`);

/** kubectl with no argument check, inside a proxy session of `role` in `mode`: only the proxy stands between it and the cluster. */
async function throughProxy(args: string[], role: RoleName, mode: ToolMode): Promise<{ output: string; refusals: { reason: string }[] }> {
  const principal = { username: `dry-${role}`, role, roles: [] };
  const session = await service.deps.proxyGateway.open({ principal, mode });
  try {
    const result = await runProcess({
      file: findBinary('kubectl'),
      args: ['--kubeconfig', session.kubeconfigPath, ...args],
      environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch },
      timeoutMs: 20_000,
      outputLimit: 256 * 1024,
    });
    return { output: result.output, refusals: [...session.refusals()] };
  } finally {
    await session.close();
  }
}

/** One HTTPS request to a proxy with the path exactly as written (kubectl would clean it first). */
async function rawProxyRequest(method: string, path: string): Promise<{ status: number; body: string; refusals: { reason: string }[] }> {
  const session = await service.deps.proxyGateway.open({ principal: { username: 'dry-admin', role: 'admin', roles: [] }, mode: 'approved' });
  try {
    const kubeconfig = readFileSync(session.kubeconfigPath, 'utf8');
    const server = /server: "?([^"\s]+)"?/.exec(kubeconfig)?.[1] ?? '';
    const token = /token: "?([^"\s]+)"?/.exec(kubeconfig)?.[1] ?? '';
    const ca = Buffer.from(/certificate-authority-data: "?([^"\s]+)"?/.exec(kubeconfig)?.[1] ?? '', 'base64');
    const url = new URL(server);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = request({ host: url.hostname, port: url.port, method, path, ca, headers: { authorization: `Bearer ${token}` } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    return { ...answer, refusals: [...session.refusals()] };
  } finally {
    await session.close();
  }
}

beforeAll(async () => {
  wire = await startLlmWireServer();
  const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-dry-run-test', max_retries: 0 };
  service = await startTestService({ config: { llm: llm as never, tools: { files: { root: scratch } } } });
  const workload = (kind: string, apiVersion: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion, kind, metadata: { name: 'web' }, spec });
  await applyYaml(clusterKubeconfig(), workload('Deployment', 'apps/v1', { replicas: 1, selector, template }), namespace.name);
  await applyYaml(clusterKubeconfig(), workload('ReplicaSet', 'apps/v1', { replicas: 1, selector, template }), namespace.name);
  await applyYaml(clusterKubeconfig(), workload('StatefulSet', 'apps/v1', { replicas: 1, selector, template, serviceName: 'web' }), namespace.name);
  await applyYaml(clusterKubeconfig(), workload('ReplicationController', 'v1', { replicas: 1, selector: { app: 'dry' }, template }), namespace.name);
  await applyYaml(
    clusterKubeconfig(),
    JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'victim' }, spec: { containers: [container] } }),
    namespace.name,
  );
  await kubectlAdmin('create', 'serviceaccount', 'controller', '-n', namespace.name);
  await kubectlAdmin('create', 'configmap', 'keep', '-n', namespace.name, '--from-literal=a=b');
  writeFileSync(join(scratch, 'token-request.json'), JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }));
});

afterAll(async () => {
  await Promise.all([service?.close(), wire?.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe('the dry-run table holds only what the real API server honours', () => {
  it('has a proof for every entry', () => {
    expect(Object.keys(fixtures).sort()).toEqual([...dryRunResources].sort());
    expect(Object.keys(subresourceFixtures).sort()).toEqual([...dryRunSubresources].sort());
  });

  it('creates each resource with dryRun=All and nothing is persisted', async () => {
    const persisted: string[] = [];
    for (const [key, fixture] of Object.entries(fixtures)) {
      const name = uniqueName('dry-run');
      const group = key.split('/')[0] ?? '';
      const apiVersion = group === '' ? fixture.version : `${group}/${fixture.version}`;
      const body = { apiVersion, kind: fixture.kind, metadata: { name }, ...fixture.body };
      const file = join(scratch, `${name}.json`);
      writeFileSync(file, JSON.stringify(body));
      const path = collectionPath(key, fixture.version, fixture.namespaced);
      const created = await tryKubectl(clusterKubeconfig(), ['create', '--raw', `${path}?dryRun=All`, '-f', file]);
      expect(created.code, `${key}: ${created.stderr}`).toBe(0);
      expect(JSON.parse(created.stdout).metadata.name, key).toBe(name);
      const after = await tryKubectl(clusterKubeconfig(), ['get', '--raw', `${path}/${name}`]);
      if (after.code === 0) persisted.push(key);
      else expect(after.stderr, key).toMatch(/NotFound|not found/);
    }
    expect(persisted).toEqual([]);
  });

  it('patches each subresource with --dry-run=server and nothing changes', async () => {
    for (const [key, fixture] of Object.entries(subresourceFixtures)) {
      const before = await field(fixture.kind, fixture.name, fixture.field);
      const subresource = key.split('/')[2] ?? '';
      const patched = await tryKubectl(clusterKubeconfig(), [
        'patch',
        fixture.kind,
        fixture.name,
        '-n',
        namespace.name,
        `--subresource=${subresource}`,
        '--type=merge',
        `-p=${JSON.stringify(fixture.patch)}`,
        '--dry-run=server',
      ]);
      expect(patched.code, `${key}: ${patched.stderr}`).toBe(0);
      expect(await field(fixture.kind, fixture.name, fixture.field), key).toBe(before);
    }
  });

  it('deletes with dryRun=All (one object, a collection, a namespace) and everything is still there', async () => {
    await kubectlAdmin('delete', 'pod', 'victim', '-n', namespace.name, '--dry-run=server');
    await kubectlAdmin('delete', 'configmaps', '--all', '-n', namespace.name, '--dry-run=server');
    await kubectlAdmin('delete', 'namespace', namespace.name, '--dry-run=server');
    expect(await field('pod', 'victim', '{.metadata.name}')).toBe('victim');
    expect(await field('configmap', 'keep', '{.data.a}')).toBe('b');
    expect(await kubectlAdmin('get', 'namespace', namespace.name, '-o', 'jsonpath={.status.phase}')).toBe('Active');
  });
});

describe('read mode means reads: dryRun=All passes only where it persists nothing', () => {
  it('refuses a token request with dryRun=All (the issue 23 attack) and no token is minted', async () => {
    const tokenPath = `/api/v1/namespaces/${namespace.name}/serviceaccounts/controller/token?dryRun=All`;
    for (const role of ['user', 'admin'] as const) {
      const run = await throughProxy(['create', '--raw', tokenPath, '-f', join(scratch, 'token-request.json'), '--dry-run=server'], role, 'read');
      expect(run.output).not.toMatch(/"token":|eyJ/);
      expect(run.refusals).toEqual([expect.objectContaining({ reason: expect.stringContaining('dryRun=All does not make this request a dry run') })]);
    }
  });

  it('refuses other writes that ignore dryRun=All or are not in the table, and lets table dry runs through', async () => {
    const review = (kind: string, spec: unknown) => {
      const file = join(scratch, `${kind}.json`);
      writeFileSync(file, JSON.stringify({ apiVersion: kind === 'TokenReview' ? 'authentication.k8s.io/v1' : 'authorization.k8s.io/v1', kind, spec }));
      return file;
    };
    const eviction = join(scratch, 'eviction.json');
    writeFileSync(eviction, JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'victim', namespace: namespace.name } }));
    const refused: [string, string][] = [
      ['/apis/authentication.k8s.io/v1/tokenreviews?dryRun=All', review('TokenReview', { token: 'abc' })],
      ['/apis/authorization.k8s.io/v1/subjectaccessreviews?dryRun=All', review('SubjectAccessReview', { user: 'x', resourceAttributes: { verb: 'get' } })],
      [`/api/v1/namespaces/${namespace.name}/pods/victim/eviction?dryRun=All`, eviction],
    ];
    for (const [path, file] of refused) {
      const run = await throughProxy(['create', '--raw', path, '-f', file], 'admin', 'read');
      expect(run.refusals, path).toEqual([expect.objectContaining({ reason: expect.stringContaining('ran as read-only') })]);
    }
    expect(await field('pod', 'victim', '{.metadata.name}')).toBe('victim');
    const allowed = await throughProxy(['scale', 'deployment', 'web', '--replicas=5', '-n', namespace.name, '--dry-run=server'], 'user', 'read');
    expect(allowed).toMatchObject({ refusals: [], output: expect.stringContaining('scaled (server dry run)') });
    expect(await field('deployment', 'web', '{.spec.replicas}')).toBe('1');
  });
});

describe('kubectl --raw is never a dry run', () => {
  it('asks for a raw delete as dangerous (not "read (dry run)") and nothing is deleted when the admin says no', async () => {
    const admin = { token: service.adminToken };
    wire.reset();
    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: `delete --raw /api/v1/namespaces/${namespace.name}/pods/victim --dry-run=server` } }] },
      { text: ['Not run.'] },
    ]);
    const run = await chat(
      service,
      { message: 'dry-run delete of the victim', context: {} },
      {
        token: admin.token,
        onEvent: async (event) => {
          if (event.event === 'tool_request' && event.data.requiresApproval)
            await service.api('POST', '/api/tool/approve', { token: admin.token, body: { id: event.data.id, approved: false } });
        },
      },
    );
    expect(run.nth('tool_request')).toMatchObject({
      type: 'dangerous',
      requiresApproval: true,
      warnings: expect.arrayContaining([expect.stringMatching(/ignores --dry-run/)]),
    });
    expect(run.nth('tool_execution')).toMatchObject({ status: 'rejected' });
    expect(await field('pod', 'victim', '{.metadata.name}')).toBe('victim');
  });

  it('blocks delete --raw of kube-system and classifies raw writes by their HTTP verb (POST /api/tool/analyze)', async () => {
    const analyze = async (command: string) =>
      (await service.api('POST', '/api/tool/analyze', { token: service.adminToken, body: { tool: 'kubectl', command } })).body;
    expect(await analyze('delete --raw /api/v1/namespaces/kube-system')).toMatchObject({ blocked: true });
    expect(await analyze('delete --raw /api/v1/namespaces/%6b%75%62%65-system --dry-run=server')).toMatchObject({ blocked: true });
    expect(await analyze('create --raw /api/v1/namespaces/x/serviceaccounts/s/token?dryRun=All -f token-request.json --dry-run=server')).toMatchObject({
      type: 'write',
      isReadOnly: false,
      requiresApproval: true,
    });
    expect(await analyze('replace --raw /api/v1/namespaces/x/configmaps/c -f token-request.json --dry-run=server')).toMatchObject({ type: 'write' });
    expect(await analyze('get --raw /api/v1/namespaces/x/pods')).toMatchObject({ type: 'read' });
  });
});

describe('paths the API server would read differently are refused by the proxy', () => {
  it.each([
    ['GET', `/apis//v1/namespaces/NS/pods`],
    ['GET', `/api/v1/namespaces//pods`],
    ['DELETE', `/api/v1/namespaces/NS/pods/victim/../../../namespaces/NS`],
    ['GET', `/api/v1/namespaces/NS/./secrets`],
    ['DELETE', `/api/v1/namespaces/NS/pods/%2e%2e/victim`],
    ['GET', `/api/v1/namespaces/NS/configmaps/`],
  ])('%s %s → 400, nothing forwarded', async (method, template) => {
    const answer = await rawProxyRequest(method, template.replaceAll('NS', namespace.name));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: expect.stringContaining('the policy proxy refuses the path'),
    });
    expect(answer.refusals).toHaveLength(1);
    expect(await field('pod', 'victim', '{.metadata.name}')).toBe('victim');
  });

  it('forwards the same request with a clean path', async () => {
    const answer = await rawProxyRequest('GET', `/api/v1/namespaces/${namespace.name}/configmaps/keep`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ data: { a: 'b' } });
  });
});
