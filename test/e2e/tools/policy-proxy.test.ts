import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/rbac/principal.js';
import type { RoleName } from '../../../src/config/schema.js';
import { findBinary } from '../../../src/tools/binaries.js';
import { createKubectlTool } from '../../../src/tools/builtin/index.js';
import { runProcess } from '../../../src/tools/builtin/process-runner.js';
import type { Tool, ToolMode, ToolResult } from '../../../src/tools/types.js';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { chat } from '../../helpers/chat-stream.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// The AI's tools reach the cluster only through a per-call policy proxy. These tests call the tool
// layer the way the agent does (a session from the service's gateway in the ToolContext) and check
// the real cluster afterwards.
const namespace = useNamespace('proxy');
const scratch = mkdtempSync(join(tmpdir(), 'pilothouse-proxy-test-'));
const followedLog = join(scratch, 'followed.log');
let service: TestService;
let impersonating: TestService;
let wire: LlmWireServer;
/** Every output a tool produced in this file (checked for credentials at the end). */
const outputs: string[] = [];

const principal = (role: RoleName = 'admin'): Principal => ({ username: `proxy-${role}`, role, roles: [] });
const criLine = (line: string): string => `${new Date().toISOString()} stdout F ${line}\n`;
const exists = async (...args: string[]): Promise<boolean> => (await tryKubectl(clusterKubeconfig(), ['get', ...args, '-n', namespace.name])).code === 0;

interface ProxiedRun extends ToolResult {
  refusals: { verb: string; resource: string; namespace: string; name: string; reason: string }[];
}

/** Runs one tool call inside a proxy session of `target`, as the agent's tool step does. */
async function throughProxy(command: string, options: { mode: ToolMode; role?: RoleName; target?: TestService; tool?: Tool | 'bash' }): Promise<ProxiedRun> {
  const target = options.target ?? service;
  const caller = principal(options.role);
  const tool = options.tool === 'bash' ? target.deps.tools.get('bash') : (options.tool ?? target.deps.tools.get('kubectl'));
  if (!tool) throw new Error('tool missing');
  const session = await target.deps.proxyGateway.open({ principal: caller, mode: options.mode });
  try {
    const result = await tool.run({ command }, { principal: caller, mode: options.mode, proxySession: session, sessionId: 'proxy-test' });
    outputs.push(result.output);
    return { ...result, refusals: [...session.refusals()] };
  } finally {
    await session.close();
  }
}

/**
 * kubectl with no argument check at all: what a line that slipped past the classifier and the
 * tool's allowlist would run. Only the proxy stands between it and the cluster.
 */
const rawKubectl: Tool = {
  ...createKubectlTool({ kubectlPath: findBinary('kubectl'), outputLimit: 256 * 1024, timeoutMs: 20_000 }),
  run: async (args, context) =>
    runProcess({
      file: findBinary('kubectl'),
      args: ['--kubeconfig', context.proxySession?.kubeconfigPath ?? '/dev/null', ...String(args.command).split(' ')],
      environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch },
      timeoutMs: 20_000,
      outputLimit: 256 * 1024,
    }),
};

const shortKubectl = (timeoutMs: number): Tool => createKubectlTool({ kubectlPath: findBinary('kubectl'), outputLimit: 256 * 1024, timeoutMs });

function rbacYaml(name: string): string {
  const account = (account: string) => `apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: ${account}, namespace: ${name}}\n`;
  const role = `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: ph-read, namespace: ${name}}\nrules:\n- {apiGroups: [""], resources: [configmaps, pods], verbs: [get, list, watch]}\n`;
  const binding = (account: string) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: ${account}, namespace: ${name}}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ph-read}\nsubjects: [{kind: ServiceAccount, name: ${account}, namespace: ${name}}]\n`;
  return [account('ph-user'), account('ph-admin'), role, binding('ph-user'), binding('ph-admin')].join('---\n');
}

/** A pod as JSON (valid YAML); kwok runs it. */
const podYaml = (name: string, annotations: Record<string, string> = {}): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, annotations }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });

async function waitRunning(name: string): Promise<void> {
  await waitFor(
    async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', name, '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
  );
}

beforeAll(async () => {
  const kubeconfig = clusterKubeconfig();
  wire = await startLlmWireServer();
  const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-proxy-test', max_retries: 0 };
  service = await startTestService({ config: { llm: llm as never, tools: { bash: { enabled: true } } } });
  await applyYaml(kubeconfig, rbacYaml(namespace.name));
  const identity = (name: string) => `system:serviceaccount:${namespace.name}:${name}`;
  impersonating = await startTestService({
    config: {
      authorization: { impersonation: { enabled: true, mappings: { viewer: identity('ph-user'), user: identity('ph-user'), admin: identity('ph-admin') } } },
    },
  });
  await runKubectl(kubeconfig, ['create', 'configmap', 'keep', '-n', namespace.name, '--from-literal=a=b']);
  await runKubectl(kubeconfig, ['create', 'secret', 'generic', 'hidden', '-n', namespace.name, '--from-literal=password=hunter2']);
  await runKubectl(kubeconfig, ['create', 'deployment', 'web', '--image=nginx', '--replicas=1', '-n', namespace.name]);
  writeFileSync(followedLog, criLine('first line before follow'));
  await applyYaml(kubeconfig, podYaml('victim'), namespace.name);
  await applyYaml(kubeconfig, podYaml('box'), namespace.name);
  await applyYaml(kubeconfig, podYaml('talker', { 'pilothouse.dev/logs-file': followedLog }), namespace.name);
  for (const pod of ['victim', 'box', 'talker']) await waitRunning(pod);
});

afterAll(async () => {
  await Promise.all([service?.close(), impersonating?.close(), wire?.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe('misclassification is harmless: writes in mode read are refused by the proxy', () => {
  it('refuses create, delete, apply -f and scale with a 403 the model can read, and the cluster is unchanged', async () => {
    const manifest = join(scratch, 'applied.yaml');
    writeFileSync(manifest, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: ${namespace.name}}\ndata: {from: proxy-test}\n`);
    const created = await throughProxy(`create configmap sneaky -n ${namespace.name} --from-literal=x=y`, { mode: 'read' });
    expect(created).toMatchObject({
      isError: true,
      output: expect.stringContaining(`this command ran as read-only and tried to create configmaps in namespace ${namespace.name}; it needs approval`),
    });
    expect(created.refusals).toEqual([
      expect.objectContaining({ verb: 'create', resource: 'configmaps', namespace: namespace.name, reason: expect.stringContaining('needs approval') }),
    ]);
    const deleted = await throughProxy(`delete pod victim -n ${namespace.name} --wait=false`, { mode: 'read' });
    expect(deleted.output).toMatch(/read-only and tried to delete pods victim/);
    const applied = await throughProxy(`apply -f ${manifest}`, { mode: 'read', tool: rawKubectl });
    expect(applied.output).toMatch(/read-only and tried to create configmaps/);
    const scaled = await throughProxy(`scale deployment web --replicas=3 -n ${namespace.name}`, { mode: 'read' });
    expect(scaled.output).toMatch(/read-only and tried to (patch|update) deployments\/scale web/);
    expect(await exists('configmap', 'sneaky')).toBe(false);
    expect(await exists('configmap', 'applied')).toBe(false);
    expect(await exists('pod', 'victim')).toBe(true);
    expect(await runKubectl(clusterKubeconfig(), ['get', 'deployment', 'web', '-n', namespace.name, '-o', 'jsonpath={.spec.replicas}'])).toBe('1');
  });

  it('lets reads and server-side dry runs through in mode read', async () => {
    const read = await throughProxy(`get configmap keep -n ${namespace.name} -o jsonpath={.data.a}`, { mode: 'read', role: 'user' });
    expect(read).toMatchObject({ isError: false, output: 'b', refusals: [] });
    const dryRun = await throughProxy(`create configmap dry -n ${namespace.name} --dry-run=server`, { mode: 'read' });
    expect(dryRun).toMatchObject({ isError: false, output: expect.stringContaining('configmap/dry created (server dry run)') });
    expect(await exists('configmap', 'dry')).toBe(false);
  });

  it('runs the same write in mode approved as admin', async () => {
    const created = await throughProxy(`create configmap approved -n ${namespace.name} --from-literal=x=y`, { mode: 'approved' });
    expect(created).toMatchObject({ isError: false, output: expect.stringContaining('configmap/approved created'), refusals: [] });
    expect(await exists('configmap', 'approved')).toBe(true);
  });
});

describe('identity', () => {
  it('forwards as the impersonated identity of the caller when impersonation is on', async () => {
    const whoami = (role: RoleName) => throughProxy('auth whoami -o jsonpath={.status.userInfo.username}', { mode: 'read', role, target: impersonating });
    expect((await whoami('user')).output).toBe(`system:serviceaccount:${namespace.name}:ph-user`);
    expect((await whoami('admin')).output).toBe(`system:serviceaccount:${namespace.name}:ph-admin`);
    const secrets = await throughProxy(`get secret hidden -n ${namespace.name}`, { mode: 'approved', target: impersonating });
    expect(secrets).toMatchObject({
      isError: true,
      output: expect.stringContaining(`User "system:serviceaccount:${namespace.name}:ph-admin" cannot get resource "secrets"`),
    });
  });

  it('forwards as the service itself when impersonation is off', async () => {
    const whoami = await throughProxy('auth whoami -o jsonpath={.status.userInfo.username}', { mode: 'read' });
    expect(whoami).toMatchObject({ isError: false, output: 'admin' });
  });
});

describe('credentials', () => {
  it('shows only the call’s own proxy endpoint in config view --raw, never the service’s credentials or another call’s token', async () => {
    const other = await service.deps.proxyGateway.open({ principal: principal(), mode: 'read' });
    try {
      const otherToken = /token: "([^"]+)"/.exec(readFileSync(other.kubeconfigPath, 'utf8'))?.[1] ?? '';
      expect(otherToken.length).toBeGreaterThan(20);
      const view = await throughProxy('config view --raw -o json', { mode: 'read', tool: rawKubectl });
      const document = JSON.parse(view.output);
      expect(document.clusters).toEqual([
        { name: 'pilothouse', cluster: { server: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+$/), 'certificate-authority-data': expect.any(String) } },
      ]);
      expect(document.users).toEqual([{ name: 'pilothouse', user: { token: expect.any(String) } }]);
      expect(view.output).not.toContain(otherToken);
      // Closed with its call: the token is good for nothing afterwards.
      const ownToken = document.users[0].user.token as string;
      expect(ownToken).not.toBe(otherToken);
    } finally {
      await other.close();
    }
  });

  it('gains nothing from identity and endpoint flags inside bash: --as is dropped, other tokens and servers fail', async () => {
    const asSomeone = await throughProxy(
      'kubectl --as=system:kube-scheduler --as-group=system:nodes auth whoami -o jsonpath={.status.userInfo.username}/{.status.userInfo.groups}',
      {
        mode: 'read',
        tool: 'bash',
      },
    );
    expect(asSomeone.output).toMatch(/^admin\/.*system:masters/);
    expect(asSomeone.output).not.toContain('system:nodes');
    const otherToken = await throughProxy('kubectl --token=not-the-proxy-token get namespaces', { mode: 'read', tool: 'bash' });
    expect(otherToken).toMatchObject({ isError: true, output: expect.stringMatching(/provide credentials|Unauthorized/) });
    const server = new KubeConfig();
    server.loadFromFile(clusterKubeconfig());
    const apiServer = server.getCurrentCluster()?.server ?? '';
    const direct = await throughProxy(`kubectl --server=${apiServer} --request-timeout=5s get namespaces`, { mode: 'approved', tool: 'bash' });
    expect(direct.isError).toBe(true);
    expect(direct.output).not.toContain(namespace.name);
    const insecure = await throughProxy(
      `kubectl --server=${apiServer} --insecure-skip-tls-verify --certificate-authority= --request-timeout=5s get namespaces`,
      { mode: 'approved', tool: 'bash' },
    );
    expect(insecure.isError).toBe(true);
    expect(insecure.output).not.toContain(namespace.name);
    const noConfig = await throughProxy('kubectl --kubeconfig=/dev/null --request-timeout=5s get namespaces', { mode: 'approved', tool: 'bash' });
    expect(noConfig.isError).toBe(true);
    expect(noConfig.output).not.toContain(namespace.name);
  });

  it('refuses identity flags in the kubectl tool itself', async () => {
    for (const command of [`get pods --as=admin`, '--kubeconfig=/dev/null get pods', '--token abc get pods']) {
      expect(await throughProxy(command, { mode: 'read' })).toMatchObject({
        isError: true,
        output: expect.stringMatching(/kubectl tool: refused: .*(--as|--kubeconfig|--token)/),
      });
    }
  });
});

describe('streaming through the proxy', () => {
  it('follows logs (kubectl logs -f) until the tool timeout, with lines written after it started', async () => {
    const writer = setTimeout(() => appendFileSync(followedLog, criLine('second line while following')), 1500);
    try {
      const followed = await throughProxy(`logs -f talker -n ${namespace.name}`, { mode: 'read', tool: shortKubectl(5000) });
      expect(followed.output).toContain('first line before follow');
      expect(followed.output).toContain('second line while following');
      expect(followed.output).toContain('[timed out after 5000 ms]');
    } finally {
      clearTimeout(writer);
    }
  });

  it('watches pods (kubectl get pods -w) and shows a pod created meanwhile', async () => {
    const name = uniqueName('watched');
    const creator = setTimeout(() => void applyYaml(clusterKubeconfig(), podYaml(name), namespace.name), 1500);
    try {
      const watched = await throughProxy(`get pods -w -n ${namespace.name} -o name`, { mode: 'read', tool: shortKubectl(6000) });
      expect(watched.output).toContain('pod/box');
      expect(watched.output).toContain(`pod/${name}`);
      expect(watched.refusals).toEqual([]);
    } finally {
      clearTimeout(creator);
    }
  });

  it('runs kubectl exec when approved, and refuses it read-only', async () => {
    const approved = await throughProxy(`exec box -n ${namespace.name} -- echo hello-through-the-proxy`, { mode: 'approved' });
    expect(approved).toMatchObject({ isError: false, output: 'hello-through-the-proxy\n' });
    const readOnly = await throughProxy(`exec box -n ${namespace.name} -- echo sneaky`, { mode: 'read' });
    expect(readOnly.isError).toBe(true);
    expect(readOnly.output).not.toContain('sneaky\n');
    expect(readOnly.refusals[0]).toMatchObject({ resource: 'pods/exec', name: 'box', reason: expect.stringContaining('read-only') });
  });

  it('runs kubectl exec over SPDY too (the upgrade kubectl falls back to)', async () => {
    const session = await service.deps.proxyGateway.open({ principal: principal(), mode: 'approved' });
    try {
      const spdy = await new Promise<{ stdout: string; code: number | null }>((resolve, reject) => {
        const child = spawn(findBinary('kubectl'), ['--kubeconfig', session.kubeconfigPath, 'exec', 'box', '-n', namespace.name, '--', 'echo', 'over-spdy'], {
          env: { PATH: process.env.PATH, HOME: scratch, KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' },
        });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ stdout, code }));
      });
      expect(spdy).toEqual({ stdout: 'over-spdy\n', code: 0 });
    } finally {
      await session.close();
    }
  });
});

describe('through the chat', () => {
  it('refuses a user’s write that the classifier let run as a read, and says so to the model and in the audit row', async () => {
    const target = uniqueName('keep-ns');
    await runKubectl(clusterKubeconfig(), ['create', 'namespace', target]);
    try {
      const user = await service.createUser('user');
      wire.reset();
      wire.script([
        { toolCalls: [{ name: 'kubectl', arguments: { command: `delete namespace ${target} --dry-run=server --dry-run=none` } }] },
        { text: ['Done.'] },
      ]);
      const run = await chat(
        service,
        { message: 'clean up', context: {} },
        {
          token: user.token,
          onEvent: async (event) => {
            if (event.event === 'tool_request' && event.data.requiresApproval)
              await service.api('POST', '/api/tool/approve', { token: user.token, body: { id: event.data.id, approved: false } });
          },
        },
      );
      const execution = run.nth('tool_execution');
      expect((await tryKubectl(clusterKubeconfig(), ['get', 'namespace', target])).code).toBe(0);
      // Once the classifier reads the last --dry-run, the call is refused before it runs; until then the proxy refuses it.
      if (execution.status === 'forbidden' || execution.status === 'rejected') return;
      expect(execution.result).toContain(
        `[policy] refused delete namespaces ${target}: this command ran as read-only and tried to delete namespaces ${target}; it needs approval`,
      );
      const audit = await service.api('GET', '/api/audit?action=execute&limit=50', { token: service.adminToken });
      const row = audit.body.items.find((entry: { details: { id?: string } }) => entry.details.id === run.nth('tool_request').id);
      expect(row.details.refusals).toEqual([expect.objectContaining({ verb: 'delete', resource: 'namespaces', name: target })]);
    } finally {
      await tryKubectl(clusterKubeconfig(), ['delete', 'namespace', target, '--wait=false']);
    }
  });
});

describe('no credential in any output', () => {
  it('never showed the service’s token or CA in any tool output of this file', () => {
    const serviceConfig = new KubeConfig();
    serviceConfig.loadFromFile(clusterKubeconfig());
    const secrets = [serviceConfig.getCurrentUser()?.token, serviceConfig.getCurrentCluster()?.caData].filter((value): value is string => Boolean(value));
    expect(secrets.length).toBeGreaterThan(0);
    expect(outputs.length).toBeGreaterThan(15);
    for (const output of outputs) for (const secret of secrets) expect(output).not.toContain(secret);
  });
});
