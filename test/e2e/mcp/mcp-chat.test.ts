import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everythingServer } from '../../../src/mcp/client/test-servers.js';
import type { AuditEntry } from '../../../src/audit/types.js';
import { waitFor } from '../../helpers/cluster.js';
import { chat, type ChatEvent } from '../../helpers/chat-stream.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService;
let wire: LlmWireServer;
let user: { username: string; token: string };
let viewer: { token: string };

const echo = (message: string, id?: string) => ({ name: 'echo', arguments: { message }, id });
const eventNames = (run: { events: { event: string }[] }): string[] => run.events.map((event) => event.event);

/** The OpenAI-format messages of the `index`th chat request the wire server received. */
function messagesOf(index: number): { role: string; content: string; tool_call_id?: string }[] {
  return (wire.chatRequests()[index]?.body as { messages: { role: string; content: string; tool_call_id?: string }[] }).messages;
}

/** Names of the tools the `index`th chat request offered the model. */
function offeredTools(index: number): string[] {
  return ((wire.chatRequests()[index]?.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name);
}

/** The execute audit entry of one tool call id. */
async function executeEntry(id: string): Promise<AuditEntry | undefined> {
  const response = await service.api('GET', '/api/audit?action=execute&limit=100', { token: service.adminToken });
  return (response.body.items as AuditEntry[]).find((entry) => entry.details.id === id);
}

/** An onEvent that approves every tool_request over HTTP as `token`, recording the response statuses. */
function approver(token: string, statuses: number[]) {
  return async (event: ChatEvent): Promise<void> => {
    if (event.event !== 'tool_request') return;
    statuses.push((await service.api('POST', '/api/tool/approve', { token, body: { id: event.data.id, approved: true } })).status);
  };
}

beforeAll(async () => {
  wire = await startLlmWireServer();
  const everything = Object.fromEntries(Object.entries(everythingServer('everything')).filter(([key]) => key !== 'source'));
  service = await startTestService({
    config: {
      llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-mcp-chat-test', max_retries: 0 },
      mcp: { servers: [everything as never] },
      authorization: { tool_approval: { readonly_mcp_tools: ['everything/echo'] } },
    },
  });
  await waitFor(async () => {
    const response = await service.api('GET', '/api/mcp/servers', { token: service.adminToken });
    const shown =
      response.status === 200 ? (response.body.items as { name: string; status: { phase: string } }[]).find((item) => item.name === 'everything') : undefined;
    return shown?.status.phase === 'connected';
  });
  user = await service.createUser('user');
  viewer = await service.createUser('viewer');
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

beforeEach(() => wire.reset());

describe('MCP tools in the AI chat', () => {
  it('auto-runs a tool listed read-only, hands its result to the model and audits it', async () => {
    wire.script([{ toolCalls: [echo('hello from the pilot')] }, { text: ['The server said hello.'] }]);
    const run = await chat(service, { message: 'Echo something', context: {} }, { token: user.token });
    expect(eventNames(run)).toEqual(['session', 'tool_request', 'tool_execution', 'chunk', 'stream_end']);
    expect(offeredTools(0)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    const request = run.nth('tool_request');
    expect(request).toMatchObject({
      tool: 'echo',
      command: 'mcp everything echo {"message":"hello from the pilot"}',
      type: 'read',
      requiresApproval: false,
      blocked: false,
    });
    expect(run.nth('tool_execution')).toMatchObject({ id: request.id, status: 'executed', result: expect.stringContaining('Echo: hello from the pilot') });
    expect(messagesOf(1).at(-1)).toMatchObject({ role: 'tool', tool_call_id: request.id, content: expect.stringContaining('Echo: hello from the pilot') });
    expect(await executeEntry(request.id)).toMatchObject({
      user: user.username,
      resource: 'tool/echo',
      decision: 'allow',
      outcome: 'success',
      details: { command: expect.stringMatching(/^mcp everything echo /), status: 'executed' },
    });
  });

  it('waits for approval of a tool not listed read-only, then runs it', async () => {
    wire.script([{ toolCalls: [{ name: 'get-sum', arguments: { a: 19, b: 23 } }] }, { text: ['It is 42.'] }]);
    const statuses: number[] = [];
    const run = await chat(service, { message: 'Add 19 and 23', context: {} }, { token: user.token, onEvent: approver(user.token, statuses) });
    const request = run.nth('tool_request');
    expect(request).toMatchObject({
      tool: 'get-sum',
      command: 'mcp everything get-sum {"a":19,"b":23}',
      type: 'unknown',
      requiresApproval: true,
      blocked: false,
    });
    expect(statuses).toEqual([200]);
    expect(run.nth('tool_execution')).toMatchObject({ id: request.id, status: 'executed', result: expect.stringContaining('The sum of 19 and 23 is 42.') });
    expect(messagesOf(1).at(-1)?.content).toContain('is 42.');
    expect(await executeEntry(request.id)).toMatchObject({
      decision: 'allow',
      outcome: 'success',
      details: { command: expect.stringMatching(/^mcp everything get-sum /) },
    });
  });

  it('answers a viewer’s MCP call with forbidden; nothing runs', async () => {
    wire.script([{ toolCalls: [echo('from a viewer')] }, { text: ['I may not run tools.'] }]);
    const run = await chat(service, { message: 'Echo', context: {} }, { token: viewer.token });
    const request = run.nth('tool_request');
    expect(run.nth('tool_execution')).toMatchObject({ id: request.id, status: 'forbidden', result: expect.stringMatching(/^Forbidden: role viewer/) });
    expect(run.nth('tool_execution').result).not.toContain('Echo:');
    expect(run.nth('stream_end')).toEqual({ complete: true, reason: 'final_answer' });
    expect(await executeEntry(request.id)).toMatchObject({ decision: 'deny', outcome: 'forbidden' });
  });

  it('answers a tool no server advertises with tool-not-found naming it', async () => {
    wire.script([{ toolCalls: [{ name: 'everything__no-such-tool', arguments: { message: 'x' } }] }, { text: ['That tool does not exist.'] }]);
    const run = await chat(service, { message: 'Call a missing tool', context: {} }, { token: user.token });
    expect(run.nth('tool_request')).toMatchObject({ tool: 'everything__no-such-tool', requiresApproval: false });
    expect(run.nth('tool_execution')).toMatchObject({ status: 'error', result: 'Tool not found: everything__no-such-tool' });
    expect(messagesOf(1).at(-1)).toMatchObject({ role: 'tool', content: 'Tool not found: everything__no-such-tool' });
  });

  it('blocks a blocked pattern in MCP arguments, even for a read-only tool', async () => {
    wire.script([{ toolCalls: [echo('rm -rf /')] }, { text: ['That is blocked.'] }]);
    const run = await chat(service, { message: 'Echo rm -rf /', context: {} }, { token: service.adminToken });
    const request = run.nth('tool_request');
    expect(request).toMatchObject({ tool: 'echo', type: 'read', blocked: true, requiresApproval: false });
    expect(run.nth('tool_execution')).toMatchObject({ id: request.id, status: 'blocked', result: expect.stringMatching(/^Blocked/) });
    expect(run.nth('tool_execution').result).not.toContain('Echo:');
    expect(await executeEntry(request.id)).toMatchObject({
      decision: 'deny',
      outcome: 'blocked',
      details: { command: 'mcp everything echo {"message":"rm -rf /"}' },
    });
  });
});
