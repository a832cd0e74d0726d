import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { chat } from '../../helpers/chat-stream.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('chat');
let service: TestService;
let wire: LlmWireServer;
let userToken: string;

const kubectl = (command: string, id?: string) => ({ name: 'kubectl', arguments: { command }, id });
const eventNames = (run: { events: { event: string }[] }): string[] => run.events.map((event) => event.event);

beforeAll(async () => {
  wire = await startLlmWireServer();
  service = await startTestService({
    config: { llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-chat-test', max_retries: 0 } },
  });
  userToken = (await service.createUser('user')).token;
  await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'pilot-visible', '-n', namespace.name, '--from-literal=a=b']);
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

beforeEach(() => wire.reset());

describe('POST /api/chat/agentic', () => {
  it('streams session, chunks and stream_end; the context reaches the system prompt', async () => {
    wire.script([{ text: ['The ', 'answer ', 'is 42.'] }]);
    const run = await chat(
      service,
      { message: 'What is it?', context: { namespace: namespace.name, resource: 'configmap/pilot-visible' } },
      { token: userToken },
    );
    expect(run.status).toBe(200);
    expect(run.headers.get('content-type')).toContain('text/event-stream');
    expect(run.headers.get('x-accel-buffering')).toBe('no');
    expect(eventNames(run)).toEqual(['session', 'chunk', 'chunk', 'chunk', 'stream_end']);
    expect(run.nth('session', 0).session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      run
        .named('chunk')
        .map((chunk) => chunk.content)
        .join(''),
    ).toBe('The answer is 42.');
    expect(run.nth('stream_end', 0)).toEqual({ complete: true, reason: 'final_answer' });
    const system = (wire.chatRequests()[0]?.body as { messages: { content: string }[] }).messages[0]?.content;
    expect(system).toContain(`Default namespace: ${namespace.name}`);
    expect(system).toContain('configmap/pilot-visible');
    expect(system).toContain('role user');
  });

  it('auto-runs a read-only kubectl command against the cluster and returns the result to the model', async () => {
    wire.script([{ toolCalls: [kubectl(`get configmaps -n ${namespace.name}`)] }, { text: ['There is one configmap.'] }]);
    const run = await chat(service, { message: 'Which configmaps exist?', context: { namespace: namespace.name } }, { token: userToken });
    expect(eventNames(run)).toEqual(['session', 'tool_request', 'tool_execution', 'chunk', 'stream_end']);
    const request = run.nth('tool_request');
    expect(request).toMatchObject({
      tool: 'kubectl',
      command: `kubectl get configmaps -n ${namespace.name}`,
      type: 'read',
      requiresApproval: false,
      blocked: false,
    });
    const execution = run.nth('tool_execution');
    expect(execution).toMatchObject({ id: request.id, status: 'executed' });
    expect(execution.result).toContain('pilot-visible');
    const followUp = wire.chatRequests()[1]?.body as { messages: { role: string; content: string; tool_call_id?: string }[] };
    expect(followUp.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: request.id });
    expect(followUp.messages.at(-1)?.content).toContain('pilot-visible');
  });

  it('handles two tool calls of one response in order, and tool-not-found names the tool', async () => {
    wire.script([
      { toolCalls: [kubectl(`get configmap pilot-visible -n ${namespace.name} -o name`, 'call_one'), { name: 'no_such_tool', arguments: {}, id: 'call_two' }] },
      { text: ['One worked.'] },
    ]);
    const run = await chat(service, { message: 'Two things', context: {} }, { token: userToken });
    expect(eventNames(run)).toEqual(['session', 'tool_request', 'tool_execution', 'tool_request', 'tool_execution', 'chunk', 'stream_end']);
    const executions = run.named('tool_execution');
    expect(executions[0]).toMatchObject({ status: 'executed', result: 'configmap/pilot-visible\n' });
    expect(executions[1]).toMatchObject({ status: 'error', result: 'Tool not found: no_such_tool' });
  });

  it('reports an LLM failure mid-stream as error then stream_end {complete: false}', async () => {
    wire.script([{ text: ['Starting', ' to', ' answer'], failAfterChunks: 1 }]);
    const run = await chat(service, { message: 'Break', context: {} }, { token: userToken });
    expect(eventNames(run)).toEqual(['session', 'chunk', 'error', 'stream_end']);
    expect(run.nth('error', 0)).toMatchObject({ code: 'LLM_ERROR', error: expect.any(String) });
    expect(JSON.stringify(run.events)).not.toContain('sk-chat-test');
    expect(run.nth('stream_end', 0)).toEqual({ complete: false, reason: 'error' });
  });

  it('validates the body and refuses someone else’s session', async () => {
    const empty = await chat(service, { message: '', context: {} }, { token: userToken });
    expect(empty.status).toBe(400);
    expect(empty.error?.code).toBe('VALIDATION_ERROR');
    const anonymous = await chat(service, { message: 'hi', context: {} });
    expect(anonymous.status).toBe(401);
    wire.script([{ text: ['mine'] }]);
    const admins = await chat(service, { message: 'admin session', context: {} }, { token: service.adminToken });
    const stolen = await chat(service, { message: 'hi', context: {}, session_id: admins.nth('session', 0).session_id }, { token: userToken });
    expect(stolen.status).toBe(404);
  });

  it('cancels the turn when the client disconnects, and the next turn resumes the session', async () => {
    wire.script([{ toolCalls: [kubectl(`create configmap never-made -n ${namespace.name}`)] }]);
    let sessionId = '';
    const run = await chat(
      service,
      { message: 'Make one', context: {} },
      {
        token: userToken,
        onEvent: (event, abort) => {
          if (event.event === 'session') sessionId = event.data.session_id;
          if (event.event === 'tool_request') abort();
        },
      },
    );
    expect(eventNames(run)).toEqual(['session', 'tool_request']);
    const id = run.nth('tool_request', 0).id;
    let history: { messages: { reason?: string; toolCalls?: unknown[] }[] } = { messages: [] };
    await expect
      .poll(
        async () => (history = (await service.api('GET', `/api/chat/history?session_id=${sessionId}`, { token: userToken })).body).messages.at(-1)?.reason,
        { timeout: 10_000 },
      )
      .toBe('cancelled');
    const approve = await service.api('POST', '/api/tool/approve', { token: userToken, body: { id, approved: true } });
    expect(approve.status).toBe(400);
    expect(history.messages[1]?.toolCalls?.[0]).toMatchObject({ id, type: 'write', requiresApproval: true });

    wire.script([{ text: ['Resumed.'] }]);
    const resumed = await chat(service, { message: 'Go on', context: {}, session_id: sessionId }, { token: userToken });
    expect(resumed.nth('stream_end', 0)).toEqual({ complete: true, reason: 'final_answer' });
    const messages = (wire.chatRequests().at(-1)?.body as { messages: { role: string; content: string }[] }).messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(messages[3]?.content).toMatch(/^Cancelled/);
  });
});

describe('chat history', () => {
  it('lists the caller’s sessions, shows messages with tool calls and results, hides them from others, deletes', async () => {
    wire.script([{ toolCalls: [kubectl(`get configmap pilot-visible -n ${namespace.name} -o name`)] }, { text: ['Found it.'] }]);
    const run = await chat(service, { message: 'Find pilot-visible please', context: { namespace: namespace.name } }, { token: userToken });
    const sessionId = run.nth('session', 0).session_id;

    const list = await service.api('GET', '/api/chat/history', { token: userToken });
    expect(list.status).toBe(200);
    expect(list.body.items[0]).toMatchObject({ id: sessionId, title: 'Find pilot-visible please', updatedAt: expect.any(String) });

    const detail = await service.api('GET', `/api/chat/history?session_id=${sessionId}`, { token: userToken });
    expect(detail.body.session.id).toBe(sessionId);
    expect(detail.body.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant', 'assistant', 'turn_end']);
    expect(detail.body.messages[0]).toMatchObject({ content: 'Find pilot-visible please', context: { namespace: namespace.name } });
    expect(detail.body.messages[1].toolCalls[0]).toMatchObject({
      tool: 'kubectl',
      command: `kubectl get configmap pilot-visible -n ${namespace.name} -o name`,
      type: 'read',
      status: 'executed',
      result: 'configmap/pilot-visible\n',
    });
    expect(detail.body.messages[2]).toMatchObject({ content: 'Found it.', toolCalls: [] });

    const otherList = await service.api('GET', '/api/chat/history', { token: service.adminToken });
    expect(otherList.body.items.map((item: { id: string }) => item.id)).not.toContain(sessionId);
    expect((await service.api('GET', `/api/chat/history?session_id=${sessionId}`, { token: service.adminToken })).status).toBe(404);
    expect((await service.api('DELETE', `/api/chat/history?session_id=${sessionId}`, { token: service.adminToken })).status).toBe(404);
    expect((await service.api('DELETE', '/api/chat/history', { token: userToken })).status).toBe(400);

    const deleted = await service.api('DELETE', `/api/chat/history?session_id=${sessionId}`, { token: userToken });
    expect(deleted.body).toEqual({ deleted: sessionId });
    expect((await service.api('GET', `/api/chat/history?session_id=${sessionId}`, { token: userToken })).status).toBe(404);
  });

  it('audits each chat message as query and each tool run as execute with the command', async () => {
    wire.script([{ toolCalls: [kubectl(`get configmaps -n ${namespace.name} -o name`)] }, { text: ['ok'] }]);
    const run = await chat(service, { message: 'audit me', context: {} }, { token: userToken });
    const sessionId = run.nth('session', 0).session_id;
    const queries = await service.api('GET', '/api/audit?action=query&limit=100', { token: service.adminToken });
    expect(queries.body.items.find((entry: { resource: string }) => entry.resource === `chat/${sessionId}`)).toMatchObject({
      action: 'query',
      details: { message: 'audit me' },
    });
    const executions = await service.api('GET', '/api/audit?action=execute&limit=100', { token: service.adminToken });
    expect(executions.body.items.find((entry: { details: { session_id?: string } }) => entry.details.session_id === sessionId)).toMatchObject({
      resource: 'tool/kubectl',
      decision: 'allow',
      outcome: 'success',
      details: { command: `kubectl get configmaps -n ${namespace.name} -o name` },
    });
  });
});
