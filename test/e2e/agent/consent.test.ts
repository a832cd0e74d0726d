import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, useNamespace } from '../../helpers/cluster.js';
import { chat, type ChatRun } from '../../helpers/chat-stream.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Issue 23, finding 7: a chat approval is consent, not authorization. Whatever role `user` could not
// do directly without an approved access request, the AI cannot do for them after a chat "yes" either.
const granted = useNamespace('consent');
const other = useNamespace('consent-other');
let service: TestService;
let wire: LlmWireServer;
let user: { username: string; token: string };

const kubectl = (command: string) => ({ name: 'kubectl', arguments: { command } });
const exists = async (...args: string[]): Promise<boolean> => (await tryKubectl(clusterKubeconfig(), ['get', ...args])).code === 0;

/** One chat turn of `token` running `command`; every approval request is answered with `approve`. */
async function chatRun(token: string, command: string, approve: boolean): Promise<ChatRun> {
  wire.script([{ toolCalls: [kubectl(command)] }, { text: ['Done.'] }]);
  return chat(
    service,
    { message: 'please do it', context: {} },
    {
      token,
      onEvent: async (event) => {
        if (event.event === 'tool_request' && event.data.requiresApproval)
          await service.api('POST', '/api/tool/approve', { token, body: { id: event.data.id, approved: approve } });
      },
    },
  );
}

beforeAll(async () => {
  wire = await startLlmWireServer();
  const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-consent-test', max_retries: 0 };
  service = await startTestService({ config: { llm: llm as never } });
  user = await service.createUser('user');
  await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'keep', '-n', granted.name, '--from-literal=a=b']);
});

afterAll(async () => {
  await Promise.all([service?.close(), wire?.close()]);
});

beforeEach(() => wire.reset());

describe('a chat approval is consent, not authorization', () => {
  it('refuses a ClusterRoleBinding the user approved in the chat, and says an access request is needed and for what', async () => {
    const name = uniqueName('pwned-crb');
    const run = await chatRun(user.token, `create clusterrolebinding ${name} --clusterrole=cluster-admin --user=mallory`, true);
    expect(run.nth('tool_request')).toMatchObject({ type: 'write', requiresApproval: true });
    expect(run.nth('tool_execution')).toMatchObject({
      status: 'error',
      result: expect.stringContaining(
        '[policy] refused create clusterrolebindings.rbac.authorization.k8s.io: role user needs an approved access request to execute write ' +
          '(create clusterrolebindings): request access (permission execute_write, resource clusterrolebindings)',
      ),
    });
    expect(run.nth('tool_execution').accessNeeded).toEqual({ permission: 'execute_write', namespaces: [], resources: ['clusterrolebindings'] });
    expect(await exists('clusterrolebinding', name)).toBe(false);
    const audit = await service.api('GET', `/api/audit?action=execute&user=${user.username}&limit=50`, { token: service.adminToken });
    const row = audit.body.items.find((entry: { details: { id?: string } }) => entry.details.id === run.nth('tool_request').id);
    expect(row).toMatchObject({
      decision: 'deny',
      details: { refusals: [expect.objectContaining({ verb: 'create', resource: 'clusterrolebindings.rbac.authorization.k8s.io' })] },
    });
  });

  it('gives the same answer as the HTTP API for the same write', async () => {
    const name = uniqueName('pwned-crb');
    const body = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'User', name: 'mallory', apiGroup: 'rbac.authorization.k8s.io' }],
    };
    const direct = await service.api('POST', '/api/k8s/clusterrolebindings/apply', { token: user.token, body });
    expect(direct.status).toBe(403);
    expect(direct.body.details).toMatchObject({ reason: 'approval_required', permission: 'execute_write' });
    expect(await exists('clusterrolebinding', name)).toBe(false);
  });

  it('still lets the AI read for the user without asking', async () => {
    const run = await chatRun(user.token, `get configmap keep -n ${granted.name} -o jsonpath={.data.a}`, false);
    expect(run.nth('tool_request')).toMatchObject({ type: 'read', requiresApproval: false });
    expect(run.nth('tool_execution')).toMatchObject({ status: 'executed', result: 'b' });
    expect(run.nth('tool_execution')).not.toHaveProperty('accessNeeded');
  });

  it('lets the AI write after approval once the access request its refusal named is approved, on both paths, and only there', async () => {
    const refused = await chatRun(user.token, `create configmap before-grant -n ${granted.name} --from-literal=x=y`, true);
    expect(refused.nth('tool_execution').result).toContain(
      `request access (permission execute_write, resource configmaps, namespace ${granted.name}) and try again once an admin approved it`,
    );
    const accessNeeded = refused.nth('tool_execution').accessNeeded;
    expect(accessNeeded).toEqual({ permission: 'execute_write', namespaces: [granted.name], resources: ['configmaps'] });
    expect(await exists('configmap', 'before-grant', '-n', granted.name)).toBe(false);
    const history = await service.api('GET', `/api/chat/history?session_id=${refused.nth('session').session_id}`, { token: user.token });
    const stored = history.body.messages.flatMap((message: { toolCalls?: { id: string }[] }) => message.toolCalls ?? []);
    expect(stored.find((call: { id: string }) => call.id === refused.nth('tool_request').id)).toMatchObject({ accessNeeded });

    // The scope the refusal carried, filed as is, is what lifts it.
    const asked = await service.api('POST', '/api/access-requests', { token: user.token, body: { ...accessNeeded, reason: 'consent test', ttl: '1h' } });
    expect(asked.status).toBe(201);
    expect((await service.api('POST', `/api/access-requests/${asked.body.id}/approve`, { token: service.adminToken, body: {} })).status).toBe(200);

    const written = await chatRun(user.token, `create configmap after-grant -n ${granted.name} --from-literal=x=y`, true);
    expect(written.nth('tool_execution')).toMatchObject({ status: 'executed', result: expect.stringContaining('configmap/after-grant created') });
    expect(await exists('configmap', 'after-grant', '-n', granted.name)).toBe(true);
    const direct = await service.api('POST', '/api/k8s/configmaps/apply', {
      token: user.token,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'direct-grant', namespace: granted.name }, data: { x: 'y' } },
    });
    expect(direct.status).toBe(200);

    const elsewhere = await chatRun(user.token, `create configmap outside-grant -n ${other.name} --from-literal=x=y`, true);
    expect(elsewhere.nth('tool_execution').result).toContain('needs an approved access request');
    expect(elsewhere.nth('tool_execution').accessNeeded).toEqual({ permission: 'execute_write', namespaces: [other.name], resources: ['configmaps'] });
    expect(await exists('configmap', 'outside-grant', '-n', other.name)).toBe(false);
  });

  it('runs an admin’s approved write as before (the role may do it directly)', async () => {
    const run = await chatRun(service.adminToken, `create configmap by-admin -n ${other.name} --from-literal=x=y`, true);
    expect(run.nth('tool_execution')).toMatchObject({ status: 'executed' });
    expect(await exists('configmap', 'by-admin', '-n', other.name)).toBe(true);
  });
});
