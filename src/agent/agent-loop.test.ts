import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventsNamed, startAgentHarness, type AgentHarness } from '../../test/helpers/agent-harness.js';
import type { AgentEvent } from './history/agent-events.js';

let harness: AgentHarness;

beforeAll(async () => {
  harness = await startAgentHarness({ maxSteps: 3 });
});
afterAll(async () => harness.close());
beforeEach(() => harness.wire.reset());

const names = (events: readonly AgentEvent[]): string[] => events.map((event) => event.event);
const bash = (command: string, id?: string) => ({ name: 'bash', arguments: { command }, id });
type ChatBody = {
  messages: { role: string; content?: unknown; tool_call_id?: string; tool_calls?: { id: string }[] }[];
  tools?: { function: { name: string } }[];
};
const chatBody = (index: number): ChatBody => harness.wire.chatRequests()[index]?.body as ChatBody;

describe('agent loop', () => {
  it('streams a final answer chunk by chunk and records the turn in the history', async () => {
    harness.wire.script([{ text: ['Hello', ', ', 'world'] }]);
    const { events, outcome, sessionId } = await harness.turn('Say hello');
    expect(names(events)).toEqual(['chunk', 'chunk', 'chunk', 'stream_end']);
    expect(eventsNamed(events, 'chunk').map((chunk) => chunk.content)).toEqual(['Hello', ', ', 'world']);
    expect(outcome).toEqual({ complete: true, reason: 'final_answer', states: ['Idle', 'Running', 'Done', 'Idle'] });
    expect((await harness.store.entries(sessionId)).map((entry) => entry.kind)).toEqual(['user', 'assistant', 'turn_end']);
    const body = chatBody(0);
    expect(body.tools?.map((tool) => tool.function.name)).toEqual(['bash']);
    expect(body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('Default namespace: team-a') });
    expect(body.messages[0]?.content).toContain('deployment/web');
  });

  it('auto-runs a read-only command and sends its result back to the model', async () => {
    harness.wire.script([{ toolCalls: [bash('echo hello-from-bash')] }, { text: ['It printed hello.'] }]);
    const { events, outcome } = await harness.turn('Run echo');
    expect(names(events)).toEqual(['tool_request', 'tool_execution', 'chunk', 'stream_end']);
    const [request] = eventsNamed(events, 'tool_request');
    expect(request).toMatchObject({ tool: 'bash', command: 'echo hello-from-bash', type: 'read', requiresApproval: false, blocked: false });
    expect(eventsNamed(events, 'tool_execution')[0]).toEqual({ id: request?.id, result: 'hello-from-bash\n', status: 'executed' });
    expect(outcome.states).toEqual(['Idle', 'Running', 'ToolAnalysis', 'Running', 'Done', 'Idle']);
    expect(chatBody(1).messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: request?.id, content: 'hello-from-bash\n' });
  });

  it('handles two tool calls of one response in order', async () => {
    harness.wire.script([{ toolCalls: [bash('echo first', 'call_a'), bash('echo second', 'call_b')] }, { text: ['Both ran.'] }]);
    const { events } = await harness.turn('Run two');
    expect(names(events)).toEqual(['tool_request', 'tool_execution', 'tool_request', 'tool_execution', 'chunk', 'stream_end']);
    expect(eventsNamed(events, 'tool_execution').map((execution) => execution.result)).toEqual(['first\n', 'second\n']);
    const tail = chatBody(1).messages.slice(-3);
    expect(tail.map((message) => message.role)).toEqual(['assistant', 'tool', 'tool']);
    expect(tail[0]?.tool_calls?.map((call) => call.id)).toEqual([tail[1]?.tool_call_id, tail[2]?.tool_call_id]);
  });

  it('waits for approval of a write and runs it once approved', async () => {
    harness.wire.script([{ toolCalls: [bash('touch approved-file && echo made')] }, { text: ['Done.'] }]);
    const { events, outcome } = await harness.turn('Make a file', {
      role: 'user',
      onEvent: (event) => {
        if (event.event === 'tool_request') harness.approvals.decide(harness.principal('user'), event.data.id, true);
      },
    });
    expect(eventsNamed(events, 'tool_request')[0]).toMatchObject({ requiresApproval: true });
    expect(eventsNamed(events, 'tool_execution')[0]).toMatchObject({ status: 'executed', result: 'made\n' });
    expect(outcome.states).toEqual(['Idle', 'Running', 'ToolAnalysis', 'WaitingForApproval', 'Running', 'Done', 'Idle']);
  });

  it('sends a cancelled result on rejection and goes on', async () => {
    harness.wire.script([{ toolCalls: [bash('touch rejected-file')] }, { text: ['Understood, not created.'] }]);
    const { events, outcome, sessionId } = await harness.turn('Make a file', {
      onEvent: (event) => {
        if (event.event === 'tool_request') harness.approvals.decide(harness.principal('admin'), event.data.id, false);
      },
    });
    expect(eventsNamed(events, 'tool_execution')[0]).toMatchObject({ status: 'rejected', result: expect.stringMatching(/^Cancelled: the user rejected/) });
    expect(outcome.reason).toBe('final_answer');
    expect(chatBody(1).messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/^Cancelled/) });
    expect((await harness.store.entries(sessionId)).map((entry) => entry.kind)).toEqual([
      'user',
      'assistant',
      'tool_request',
      'decision',
      'tool_result',
      'assistant',
      'turn_end',
    ]);
  });

  it('times out an approval on the injected clock with a cancelled result', async () => {
    harness.wire.script([{ toolCalls: [bash('touch late-file')] }, { text: ['No decision came.'] }]);
    const { events } = await harness.turn('Make a file', {
      onEvent: (event) => {
        if (event.event === 'tool_request') setImmediate(() => harness.scheduler.advance(30_000));
      },
    });
    expect(eventsNamed(events, 'tool_execution')[0]).toMatchObject({ status: 'timeout', result: expect.stringContaining('no approval within 30s') });
    expect(harness.audit.query({ limit: 10, offset: 0, action: 'reject' }).items[0]).toMatchObject({ outcome: 'timeout' });
  });

  it('refuses by role and pattern without running anything', async () => {
    harness.wire.script([{ toolCalls: [bash('echo viewer')] }, { text: ['ok'] }]);
    const viewer = await harness.turn('list', { role: 'viewer' });
    expect(eventsNamed(viewer.events, 'tool_execution')[0]).toMatchObject({ status: 'forbidden', result: expect.stringMatching(/^Forbidden: role viewer/) });

    harness.wire.script([{ toolCalls: [bash('rm -rf ./scratch')] }, { text: ['ok'] }]);
    const user = await harness.turn('clean', { role: 'user' });
    expect(eventsNamed(user.events, 'tool_request')[0]).toMatchObject({ type: 'dangerous', requiresApproval: false });
    expect(eventsNamed(user.events, 'tool_execution')[0]).toMatchObject({ status: 'forbidden', result: expect.stringContaining('role user may not') });

    harness.wire.script([{ toolCalls: [bash('echo hi; rm -rf /')] }, { text: ['ok'] }]);
    const blocked = await harness.turn('wipe');
    expect(eventsNamed(blocked.events, 'tool_request')[0]).toMatchObject({ blocked: true, type: 'dangerous' });
    expect(eventsNamed(blocked.events, 'tool_execution')[0]).toMatchObject({ status: 'blocked' });

    harness.wire.script([{ toolCalls: [{ name: 'launch_rockets', arguments: { count: 3 } }] }, { text: ['ok'] }]);
    const missing = await harness.turn('launch');
    expect(eventsNamed(missing.events, 'tool_execution')[0]).toMatchObject({ status: 'error', result: 'Tool not found: launch_rockets' });
    const denied = harness.audit.query({ limit: 50, offset: 0, action: 'execute' }).items.filter((entry) => entry.decision === 'deny');
    expect(denied.map((entry) => entry.details.status)).toEqual(expect.arrayContaining(['forbidden', 'blocked']));
  });

  it('ends at the step cap with an explanation', async () => {
    harness.wire.script([1, 2, 3].map((index) => ({ toolCalls: [bash(`echo step-${index}`)] })));
    const { events, outcome } = await harness.turn('loop forever');
    expect(eventsNamed(events, 'tool_execution')).toHaveLength(3);
    expect(harness.wire.chatRequests()).toHaveLength(3);
    expect(eventsNamed(events, 'chunk').at(-1)?.content).toContain('limit of 3 model steps');
    expect(outcome).toMatchObject({ complete: true, reason: 'step_cap' });
  });

  it('reports an LLM failure mid-stream as error then stream_end false, keeping the partial text', async () => {
    harness.wire.script([{ text: ['Partial', ' answer', ' never'], failAfterChunks: 2 }]);
    const { events, sessionId } = await harness.turn('break');
    expect(names(events)).toEqual(['chunk', 'chunk', 'error', 'stream_end']);
    expect(eventsNamed(events, 'error')[0]).toMatchObject({ code: 'LLM_ERROR' });
    expect(eventsNamed(events, 'stream_end')[0]).toEqual({ complete: false, reason: 'error' });
    const entries = await harness.store.entries(sessionId);
    expect(entries[1]).toMatchObject({ kind: 'assistant', payload: { content: 'Partial answer' } });
    expect(entries.at(-1)).toMatchObject({ kind: 'turn_end', payload: { reason: 'error', error: { code: 'LLM_ERROR' } } });
  });

  it('cancels the turn and its pending approval when the client goes away', async () => {
    harness.wire.script([{ toolCalls: [bash('touch never-file')] }]);
    const abort = new AbortController();
    const { events, outcome } = await harness.turn('Make a file', {
      signal: abort.signal,
      onEvent: (event) => {
        if (event.event === 'tool_request') setImmediate(() => abort.abort());
      },
    });
    expect(outcome).toMatchObject({ complete: false, reason: 'cancelled' });
    expect(outcome.states.at(-2)).toBe('Error');
    expect(names(events)).toEqual(['tool_request', 'stream_end']);
    expect(harness.approvals.pendingIds()).toEqual([]);
  });

  it('resumes a session from its history, with cancelled results for interrupted calls and fresh ids', async () => {
    harness.wire.script([{ toolCalls: [bash('touch never-file', 'call_same')] }]);
    const abort = new AbortController();
    const first = await harness.turn('Make a file', {
      signal: abort.signal,
      onEvent: (event) => void (event.event === 'tool_request' && setImmediate(() => abort.abort())),
    });
    harness.wire.reset();
    harness.wire.script([{ toolCalls: [bash('echo again', 'call_same')] }, { text: ['Resumed.'] }]);
    const second = await harness.turn('Try again', { sessionId: first.sessionId });
    const ids = eventsNamed(second.events, 'tool_request').map((request) => request.id);
    expect(ids[0]).not.toBe('call_same');
    const messages = chatBody(0).messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(messages[3]).toMatchObject({ tool_call_id: 'call_same', content: expect.stringMatching(/^Cancelled: the turn was interrupted/) });
    expect((await harness.chat.history(harness.principal('admin'), first.sessionId)).messages.filter((message) => message.role === 'user')).toHaveLength(2);
  });
});
