import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { chat, type ChatEvent } from '../../helpers/chat-stream.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { signingKeyFileName } from '../../../src/auth/sessions/signing-key.js';
import type { Principal } from '../../../src/rbac/principal.js';
import type { ToolClusterGateway } from '../../../src/tools/types.js';
import { readSystemLayout } from '../../../src/tools/builtin/sandbox-layout.js';

/*
 * The bash tool with impersonation on, end to end through the chat (scripted LLM wire server):
 * what the sandboxed shell can and cannot see of the service that runs it. The service runs in
 * this process, so `process.pid` is the service's pid and `process.env` its environment.
 */
const workspace = useNamespace('bashbox');
const environmentMarker = `env-marker-${randomBytes(8).toString('hex')}`;
const configMarker = `config-marker-${randomBytes(8).toString('hex')}`;
let configFolder: string;
let configPath: string;
let service: TestService;
let wire: LlmWireServer;
let user: { username: string; token: string };
let otherUser: { username: string; token: string };

const bash = (command: string) => ({ name: 'bash', arguments: { command } });

/** Runs one bash tool call through the chat; approves it when asked (unless `approve` is false). */
async function runBash(command: string, token: string, options: { approve?: boolean; sessionId?: string } = {}) {
  wire.script([{ toolCalls: [bash(command)] }, { text: ['Done.'] }]);
  const onEvent = async (event: ChatEvent): Promise<void> => {
    if (event.event !== 'tool_request' || !event.data.requiresApproval) return;
    await service.api('POST', '/api/tool/approve', { token, body: { id: event.data.id, approved: options.approve ?? true } });
  };
  const run = await chat(service, { message: 'Run it', context: {}, session_id: options.sessionId }, { token, onEvent });
  return { request: run.nth('tool_request'), execution: run.nth('tool_execution'), sessionId: run.nth('session').session_id };
}

function rbacYaml(namespace: string): string {
  return `apiVersion: v1
kind: ServiceAccount
metadata: {name: ph-user, namespace: ${namespace}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: ph-admin, namespace: ${namespace}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: ph-user, namespace: ${namespace}}
rules:
- {apiGroups: [""], resources: [pods, configmaps], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: ph-user, namespace: ${namespace}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ph-user}
subjects: [{kind: ServiceAccount, name: ph-user, namespace: ${namespace}}]
`;
}

beforeAll(async () => {
  process.env.PILOTHOUSE_E2E_SANDBOX_MARKER = environmentMarker;
  wire = await startLlmWireServer();
  configFolder = mkdtempSync(join(tmpdir(), 'pilothouse-config-'));
  configPath = join(configFolder, 'config.yaml');
  // The config file holds the LLM key: the marker must never reach the shell.
  writeFileSync(
    configPath,
    `# ${configMarker}\nllm:\n  provider: openai\n  model: wire-model\n  base_url: ${wire.url}/v1\n  api_key: sk-${configMarker}\n  max_retries: 0\n`,
  );
  const namespace = workspace.name;
  await applyYaml(clusterKubeconfig(), rbacYaml(namespace));
  await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'keep-me', '-n', namespace]);
  await runKubectl(clusterKubeconfig(), ['run', 'sandbox-pod', '--image=nginx', '-n', namespace]);
  service = await startTestService({
    configPath,
    config: {
      tools: { bash: { enabled: true } },
      authorization: {
        impersonation: {
          enabled: true,
          mappings: { user: `system:serviceaccount:${namespace}:ph-user`, admin: `system:serviceaccount:${namespace}:ph-admin` },
        },
      },
    },
  });
  user = await service.createUser('user');
  otherUser = await service.createUser('user');
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
  delete process.env.PILOTHOUSE_E2E_SANDBOX_MARKER;
  if (configFolder) rmSync(configFolder, { recursive: true, force: true });
});

describe('bash sandbox (impersonation on)', () => {
  it('reports the sandbox as available in GET /api/health details', async () => {
    const health = await service.api('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: expect.any(String), kubernetes: 'connected', details: { bashSandbox: { status: 'available' } } });
  });

  it('runs with impersonation on and shows an empty root with only the system, /dev, /proc, /tmp and its HOME', async () => {
    const { request, execution } = await runBash('ls -A /; echo ---; ls -A /home /var /opt/pilothouse/bin', user.token);
    expect(request).toMatchObject({ tool: 'bash', blocked: false });
    expect(execution.status).toBe('executed');
    const [root, rest] = execution.result.split('---\n');
    const system = readSystemLayout().map((entry) => entry.path.slice(1));
    expect(root?.trim().split('\n').sort()).toEqual(['dev', 'etc', 'home', 'opt', 'proc', 'tmp', 'usr', 'var', ...system].sort());
    expect(rest).toContain('/home:\npilothouse\n');
    expect(rest).toContain('/var:\ntmp\n');
    expect(rest).toContain('kubectl\n');
  });

  it('cannot read the data dir: not the SQLite store, not the signing key', async () => {
    const key = readFileSync(join(service.dataDir, signingKeyFileName), 'utf8').trim();
    const command =
      `ls ${service.dataDir}; cat ${service.dataDir}/pilothouse.db ${service.dataDir}/${signingKeyFileName}; ` +
      `find / '(' -path /proc -o -path /usr ')' -prune -o '(' -name '*.db' -o -name ${signingKeyFileName} ')' -print; echo end`;
    const { execution } = await runBash(command, user.token);
    expect(execution.result).toContain('No such file or directory');
    expect(execution.result).not.toContain('SQLite format');
    expect(execution.result).not.toContain(key);
    expect(execution.result).not.toContain(signingKeyFileName + '\n');
    expect(existsSync(join(service.dataDir, signingKeyFileName))).toBe(true);
  });

  it('cannot read the config file or its folder', async () => {
    const { execution } = await runBash(`cat ${configPath}; ls ${configFolder}; grep -rs ${configMarker} /etc /home /tmp; echo end`, user.token);
    expect(execution.result).toContain('No such file or directory');
    expect(execution.result).not.toContain(configMarker);
    expect(execution.result).toContain('end');
  });

  it('sees none of the service environment: not in env, /proc/1/environ, /proc/*/environ or /proc/<service pid>/environ', async () => {
    expect(process.env.PILOTHOUSE_E2E_SANDBOX_MARKER).toBe(environmentMarker);
    const command = `env; echo ---; tr '\\0' '\\n' < /proc/1/environ; cat /proc/*/environ | tr '\\0' '\\n'; cat /proc/${process.pid}/environ; echo end`;
    const { execution } = await runBash(command, user.token);
    expect(execution.result).toContain('HOME=/home/pilothouse');
    expect(execution.result).toContain('end');
    expect(execution.result).not.toContain(environmentMarker);
    expect(execution.result).not.toContain('PILOTHOUSE_E2E_SANDBOX_MARKER');
    expect(execution.result).not.toContain(clusterKubeconfig());
  });

  it('has no service-account token folder and no cluster credential in reach', async () => {
    // The service's own kubeconfig (the test cluster's admin) and any in-cluster token folder stay outside.
    const command = `ls /var/run/secrets/kubernetes.io /run/secrets; cat ${clusterKubeconfig()}; ls -A ~; echo "[\${KUBECONFIG:-}]"; echo end`;
    const { execution } = await runBash(command, user.token);
    expect(execution.result).toContain("cannot access '/var/run/secrets/kubernetes.io': No such file or directory");
    expect(execution.result).toContain("cannot access '/run/secrets': No such file or directory");
    expect(execution.result).toContain(`${clusterKubeconfig()}: No such file or directory`);
    // KUBECONFIG is the call's proxy kubeconfig once the gateway is wired, and nothing before; never the service's.
    expect(execution.result).toMatch(proxyGateway() ? /^\[\/\S*pilothouse-proxy-\w+\/kubeconfig\]\nend\n/m : /^\[\]\nend\n/m);
    expect(execution.result).not.toContain('client-key-data');
    expect(execution.result).not.toContain('certificate-authority-data');
  });

  it('writes in its HOME (after approval) and keeps the file for the session, but not for other sessions', async () => {
    const note = `note-${randomBytes(4).toString('hex')}`;
    const written = await runBash(`echo ${note} > private-note && echo wrote`, user.token);
    expect(written.request).toMatchObject({ requiresApproval: true });
    expect(written.execution).toMatchObject({ status: 'executed', result: 'wrote\n' });
    expect(readFileSync(join(service.dataDir, 'sandboxes', written.sessionId, 'private-note'), 'utf8')).toBe(`${note}\n`);

    const again = await runBash('cat private-note', user.token, { sessionId: written.sessionId });
    expect(again.execution.result).toBe(`${note}\n`);

    const sessionFolder = join(service.dataDir, 'sandboxes', written.sessionId);
    const probe = `cat private-note; ls ${sessionFolder} ${join(service.dataDir, 'sandboxes')}; ls -A /home; grep -rs ${note} / --exclude-dir=proc --exclude-dir=usr --exclude-dir=sys; echo end`;
    for (const token of [user.token, otherUser.token]) {
      const other = await runBash(probe, token);
      expect(other.sessionId).not.toBe(written.sessionId);
      expect(other.execution.result).not.toContain(note);
      expect(other.execution.result).toContain('private-note: No such file or directory');
    }
  });

  it('still classifies a cluster write through bash and asks; rejected, nothing changes', async () => {
    const { request, execution } = await runBash(`kubectl label configmap keep-me -n ${workspace.name} touched=yes`, user.token, { approve: false });
    expect(request).toMatchObject({ tool: 'bash', requiresApproval: true });
    expect(['write', 'dangerous']).toContain(request.type);
    expect(execution.status).toBe('rejected');
    const labels = await runKubectl(clusterKubeconfig(), ['get', 'configmap', 'keep-me', '-n', workspace.name, '-o', 'jsonpath={.metadata.labels}']);
    expect(labels).not.toContain('touched');
  });
});

/** The policy proxy gateway (`deps.proxyGateway`), once it is wired into the service on this branch. */
function proxyGateway(): ToolClusterGateway | undefined {
  return (service.deps as unknown as { proxyGateway?: ToolClusterGateway }).proxyGateway;
}

describe('bash sandbox through the policy proxy', () => {
  it('runs kubectl get pods as the caller’s impersonated identity', async (context) => {
    if (!proxyGateway()) context.skip('the policy proxy gateway (deps.proxyGateway) is not wired into the service on this branch yet');
    const listed = await runBash(`kubectl get pods -n ${workspace.name} -o name`, user.token);
    expect(listed.execution).toMatchObject({ status: 'executed', result: 'pod/sandbox-pod\n' });
    const refused = await runBash(`kubectl get pods -n ${workspace.name} -o name`, service.adminToken);
    expect(refused.execution.status).toBe('error');
    expect(refused.execution.result).toContain(`system:serviceaccount:${workspace.name}:ph-admin`);
  });

  it('answers a write that ran without approval (mode read) with 403 from the proxy; the cluster is unchanged', async (context) => {
    const gateway = proxyGateway();
    if (!gateway) return context.skip('the policy proxy gateway (deps.proxyGateway) is not wired into the service on this branch yet');
    const principal: Principal = { username: user.username, role: 'user', roles: [] };
    const session = await gateway.open({ principal, mode: 'read' });
    try {
      const tool = service.deps.tools.get('bash');
      const result = await tool!.run(
        { command: `kubectl create configmap forced -n ${workspace.name}` },
        { principal, sessionId: 'forced', mode: 'read', proxySession: session },
      );
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/forbidden|403|read-only/i);
    } finally {
      await session.close();
    }
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'forced', '-n', workspace.name])).code).not.toBe(0);
  });
});
