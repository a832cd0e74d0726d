import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('exec');
let service: TestService;

function podYaml(name: string, containers: string[]): string {
  return [
    `apiVersion: v1`,
    `kind: Pod`,
    `metadata: {name: ${name}}`,
    `spec:`,
    `  containers:`,
    ...containers.map((container) => `  - {name: ${container}, image: busybox}`),
  ].join('\n');
}

beforeAll(async () => {
  service = await startTestService({ config: { limits: { exec_output_limit: 4096, exec_timeout: '2s' } } });
  await applyYaml(clusterKubeconfig(), podYaml('box', ['main']), namespace.name);
  await applyYaml(clusterKubeconfig(), podYaml('pair', ['one', 'two']), namespace.name);
  for (const pod of ['box', 'pair']) {
    await waitFor(
      async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', pod, '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
    );
  }
});

afterAll(async () => {
  await service?.close();
});

const exec = (pod: string, body: unknown) => service.api('POST', `/api/pods/${pod}/exec`, { body, token: service.adminToken });

describe('POST /api/pods/{name}/exec', () => {
  it('runs argv and returns stdout, stderr and the exit code', async () => {
    const ok = await exec('box', { namespace: namespace.name, command: ['echo', 'hello', '$HOME; rm -rf /'] });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ stdout: 'hello $HOME; rm -rf /\n', stderr: '', exitCode: 0 });
    const failing = await exec('box', { namespace: namespace.name, container: 'main', command: ['sh', '-c', 'echo oops >&2; exit 3'] });
    expect(failing.body.stderr).toBe('oops\n');
    expect(failing.body.exitCode).toBe(3);
  });

  it('records the equivalent kubectl command in the audit log', async () => {
    await exec('box', { namespace: namespace.name, command: ['true'] });
    const list = service.deps.audit.query({ action: 'execute', limit: 100, offset: 0 }).items;
    expect(list.some((entry) => entry.resource === 'pod/box' && entry.details.command === `kubectl exec box -n ${namespace.name} -c main -- true`)).toBe(true);
  });

  it('caps the output and says so', async () => {
    const response = await exec('box', { namespace: namespace.name, command: ['seq', '1', '5000'] });
    expect(response.body.truncated).toBe(true);
    expect(response.body.stdout.length).toBe(4096);
  });

  it('stops a command at the timeout', async () => {
    const response = await exec('box', { namespace: namespace.name, command: ['sleep', '30'] });
    expect(response.status).toBe(200);
    expect(response.body.timedOut).toBe(true);
    expect(response.body.exitCode).toBeNull();
  });

  it('needs a container when the pod has several', async () => {
    const response = await exec('pair', { namespace: namespace.name, command: ['true'] });
    expect(response.status).toBe(400);
    expect(response.body.details.containers).toEqual(['one', 'two']);
    const chosen = await exec('pair', { namespace: namespace.name, container: 'two', command: ['echo', 'two'] });
    expect(chosen.body.stdout).toBe('two\n');
  });

  it('404s for unknown pods, containers and wrong namespaces', async () => {
    expect((await exec('ghost', { namespace: namespace.name, command: ['true'] })).status).toBe(404);
    expect((await exec('box', { namespace: namespace.name, container: 'ghost', command: ['true'] })).status).toBe(404);
    expect((await exec('box', { namespace: 'default', command: ['true'] })).status).toBe(404);
  });

  it('rejects a shell line, an empty argv and missing fields with 400', async () => {
    expect((await exec('box', { namespace: namespace.name, command: 'echo hi' })).status).toBe(400);
    expect((await exec('box', { namespace: namespace.name, command: [] })).status).toBe(400);
    expect((await exec('box', { command: ['true'] })).status).toBe(400);
  });
});
