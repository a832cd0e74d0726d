import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { chat, type ChatEvent } from '../../helpers/chat-stream.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import type { AuditEntry } from '../../../src/audit/types.js';

const namespace = useNamespace('approve');
let service: TestService;
let wire: LlmWireServer;
let user: { username: string; token: string };
let otherUser: { token: string };
let viewer: { token: string };

const kubectl = (command: string) => ({ name: 'kubectl', arguments: { command } });
const llmConfig = (): Record<string, unknown> => ({
  provider: 'openai',
  model: 'wire-model',
  base_url: `${wire.url}/v1`,
  api_key: 'sk-approval-test',
  max_retries: 0,
});
const configMapExists = async (name: string): Promise<boolean> =>
  (await tryKubectl(clusterKubeconfig(), ['get', 'configmap', name, '-n', namespace.name])).code === 0;

/** An onEvent that decides every tool_request over HTTP with `token`, recording the responses. */
function decider(token: string, approved: boolean, responses: unknown[] = []) {
  return async (event: ChatEvent): Promise<void> => {
    if (event.event !== 'tool_request') return;
    const response = await service.api('POST', '/api/tool/approve', { token, body: { id: event.data.id, approved } });
    responses.push({ status: response.status, body: response.body });
  };
}

beforeAll(async () => {
  wire = await startLlmWireServer();
  service = await startTestService({ config: { llm: llmConfig() as never } });
  user = await service.createUser('user');
  otherUser = await service.createUser('user');
  viewer = await service.createUser('viewer');
  await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'keep-me', '-n', namespace.name]);
  // A chat approval is consent, not authorization (ADR 0026): role user writes only under an approved access request.
  const asked = await service.api('POST', '/api/access-requests', {
    token: user.token,
    body: { permission: 'execute_write', namespaces: [namespace.name], resources: ['configmaps'], reason: 'approval tests', ttl: '1h' },
  });
  await service.api('POST', `/api/access-requests/${asked.body.id}/approve`, { token: service.adminToken, body: {} });
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

beforeEach(() => wire.reset());

describe('approvals', () => {
  it('runs a write after the owner approves it, audited as approve and execute', async () => {
    wire.script([{ toolCalls: [kubectl(`create configmap approved-cm -n ${namespace.name}`)] }, { text: ['Created.'] }]);
    const responses: unknown[] = [];
    const run = await chat(
      service,
      { message: 'Create approved-cm', context: { namespace: namespace.name } },
      { token: user.token, onEvent: decider(user.token, true, responses) },
    );
    const request = run.nth('tool_request');
    expect(request).toMatchObject({ tool: 'kubectl', type: 'write', requiresApproval: true, blocked: false });
    expect(responses).toEqual([{ status: 200, body: { id: request?.id, approved: true, status: 'approved' } }]);
    expect(run.nth('tool_execution', 0)).toMatchObject({ id: request.id, status: 'executed', result: expect.stringContaining('approved-cm') });
    expect(await configMapExists('approved-cm')).toBe(true);
    const approvals = await service.api('GET', '/api/audit?action=approve&limit=100', { token: service.adminToken });
    expect(approvals.body.items.find((entry: AuditEntry) => entry.details.id === request.id)).toMatchObject({ user: user.username, decision: 'allow' });
    const again = await service.api('POST', '/api/tool/approve', { token: user.token, body: { id: request.id, approved: true } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('VALIDATION_ERROR');
  });

  it('sends a cancelled result on rejection and the loop goes on; nothing runs', async () => {
    wire.script([{ toolCalls: [kubectl(`create configmap rejected-cm -n ${namespace.name}`)] }, { text: ['Fine, I did not create it.'] }]);
    const run = await chat(service, { message: 'Create rejected-cm', context: {} }, { token: user.token, onEvent: decider(user.token, false) });
    expect(run.nth('tool_execution', 0)).toMatchObject({ status: 'rejected', result: expect.stringMatching(/^Cancelled: the user rejected/) });
    expect(
      run
        .named('chunk')
        .map((chunk) => chunk.content)
        .join(''),
    ).toBe('Fine, I did not create it.');
    expect(run.nth('stream_end', 0)).toEqual({ complete: true, reason: 'final_answer' });
    expect(await configMapExists('rejected-cm')).toBe(false);
    const rejects = await service.api('GET', '/api/audit?action=reject&limit=100', { token: service.adminToken });
    expect(rejects.body.items.some((entry: AuditEntry) => entry.details.id === run.nth('tool_request', 0).id)).toBe(true);
  });

  it('answers 404 for unknown ids and for another user’s call, 400 for a bad body; an admin may decide', async () => {
    expect((await service.api('POST', '/api/tool/approve', { token: user.token, body: { id: 'call_unknown', approved: true } })).status).toBe(404);
    expect((await service.api('POST', '/api/tool/approve', { token: user.token, body: { id: 'x', approved: 'yes' } })).status).toBe(400);
    wire.script([{ toolCalls: [kubectl(`label configmap keep-me -n ${namespace.name} team=a`)] }, { text: ['Labelled.'] }]);
    const statuses: number[] = [];
    const run = await chat(
      service,
      { message: 'Label it', context: {} },
      {
        token: user.token,
        onEvent: async (event) => {
          if (event.event !== 'tool_request') return;
          statuses.push((await service.api('POST', '/api/tool/approve', { token: otherUser.token, body: { id: event.data.id, approved: true } })).status);
          statuses.push((await service.api('POST', '/api/tool/approve', { token: service.adminToken, body: { id: event.data.id, approved: true } })).status);
        },
      },
    );
    expect(statuses).toEqual([404, 200]);
    expect(run.nth('tool_execution', 0)).toMatchObject({ status: 'executed' });
  });
});

describe('refusals', () => {
  it('blocks a blocked pattern for everyone without asking', async () => {
    wire.script([{ toolCalls: [kubectl('delete namespace kube-system')] }, { text: ['That is blocked.'] }]);
    const run = await chat(service, { message: 'Delete kube-system', context: {} }, { token: service.adminToken });
    expect(run.nth('tool_request', 0)).toMatchObject({ blocked: true, type: 'dangerous', requiresApproval: false });
    expect(run.nth('tool_execution', 0)).toMatchObject({ status: 'blocked', result: expect.stringMatching(/^Blocked/) });
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'namespace', 'kube-system'])).code).toBe(0);
  });

  it('answers every tool call of a viewer with forbidden, audited as a denied execute', async () => {
    wire.script([{ toolCalls: [kubectl(`get configmaps -n ${namespace.name}`)] }, { text: ['I cannot look, but usually...'] }]);
    const run = await chat(service, { message: 'List configmaps', context: {} }, { token: viewer.token });
    expect(run.nth('tool_execution', 0)).toMatchObject({ status: 'forbidden', result: expect.stringMatching(/^Forbidden: role viewer/) });
    expect(run.nth('stream_end', 0)).toEqual({ complete: true, reason: 'final_answer' });
    const denied = await service.api('GET', '/api/audit?action=execute&limit=100', { token: service.adminToken });
    expect(denied.body.items.find((entry: AuditEntry) => entry.details.id === run.nth('tool_request', 0).id)).toMatchObject({
      decision: 'deny',
      outcome: 'forbidden',
    });
  });

  it('refuses deletes for role user, and runs them for an admin after approval', async () => {
    wire.script([{ toolCalls: [kubectl(`delete configmap keep-me -n ${namespace.name}`)] }, { text: ['Not allowed.'] }]);
    const refused = await chat(service, { message: 'Delete keep-me', context: {} }, { token: user.token, onEvent: decider(user.token, true) });
    expect(refused.nth('tool_request', 0)).toMatchObject({ type: 'dangerous', requiresApproval: false });
    expect(refused.nth('tool_execution', 0)).toMatchObject({ status: 'forbidden', result: expect.stringContaining('role user may not') });
    expect(await configMapExists('keep-me')).toBe(true);

    wire.script([{ toolCalls: [kubectl(`delete configmap keep-me -n ${namespace.name}`)] }, { text: ['Deleted.'] }]);
    const allowed = await chat(service, { message: 'Delete keep-me', context: {} }, { token: service.adminToken, onEvent: decider(service.adminToken, true) });
    expect(allowed.nth('tool_request', 0)).toMatchObject({ type: 'dangerous', requiresApproval: true, warnings: expect.any(Array) });
    expect(allowed.nth('tool_execution', 0)).toMatchObject({ status: 'executed' });
    expect(await configMapExists('keep-me')).toBe(false);
  });
});

describe('approval timeout and impersonation (service with a 1s approval wait)', () => {
  let short: TestService;
  let shortUser: { token: string };

  beforeAll(async () => {
    short = await startTestService({
      config: {
        llm: llmConfig() as never,
        authorization: {
          tool_approval: { timeout: '1s' },
          impersonation: { enabled: true, mappings: { user: `system:serviceaccount:${namespace.name}:nobody`, admin: 'kubernetes-admin' } },
        },
      },
    });
    shortUser = await short.createUser('user');
  });
  afterAll(async () => short?.close());

  it('cancels a call nobody decides with status timeout, and the loop goes on', async () => {
    wire.script([{ toolCalls: [kubectl(`create configmap late-cm -n ${namespace.name}`)] }, { text: ['No answer, so I did nothing.'] }]);
    const run = await chat(short, { message: 'Create late-cm', context: {} }, { token: shortUser.token });
    expect(run.nth('tool_execution', 0)).toMatchObject({ status: 'timeout', result: expect.stringMatching(/^Cancelled: no approval within 1s/) });
    expect(run.nth('stream_end', 0)).toEqual({ complete: true, reason: 'final_answer' });
    expect(await configMapExists('late-cm')).toBe(false);
  });

  it('runs tool commands as the caller’s impersonated identity', async () => {
    wire.script([{ toolCalls: [kubectl(`get configmaps -n ${namespace.name}`)] }, { text: ['Forbidden by the cluster.'] }]);
    const run = await chat(short, { message: 'List', context: {} }, { token: shortUser.token });
    const execution = run.nth('tool_execution');
    expect(execution.status).toBe('error');
    expect(execution.result).toContain(`system:serviceaccount:${namespace.name}:nobody`);
  });
});
