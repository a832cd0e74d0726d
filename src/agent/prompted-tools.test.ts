import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventsNamed, startAgentHarness, type AgentHarness } from '../../test/helpers/agent-harness.js';
import { readPromptedCalls } from './prompted-tools.js';

let counter = 0;
const newId = (): string => `call_p${++counter}`;
const block = (body: string, language = 'tool_call'): string => `\`\`\`${language}\n${body}\n\`\`\``;

describe('reading prompted tool calls', () => {
  it('reads tool_call blocks (and json blocks shaped like a call) in order; other json blocks are text', () => {
    const text = [
      'Let me look.',
      block('{"name": "bash", "arguments": {"command": "echo one"}}'),
      block('{"replicas": 3}', 'json'),
      block('{"name": "bash", "arguments": {"command": "echo two"}}', 'json'),
    ].join('\n');
    const read = readPromptedCalls(text, ['bash'], newId);
    expect(read.calls.map((call) => call.arguments)).toEqual([{ command: 'echo one' }, { command: 'echo two' }]);
    expect(read.corrections.size).toBe(0);
  });

  it('answers malformed JSON, a missing name, bad arguments and an unknown tool with corrections', () => {
    const text = [
      block('{"name": "bash", "arguments": {"command": "echo'),
      block('{"arguments": {}}'),
      block('{"name": "bash", "arguments": "echo"}'),
      block('{"name": "rm_everything", "arguments": {}}'),
    ].join('\n');
    const read = readPromptedCalls(text, ['bash', 'kubectl'], newId);
    expect(read.calls).toHaveLength(4);
    const corrections = read.calls.map((call) => read.corrections.get(call.id));
    expect(corrections[0]).toMatch(/^Correction: .*not valid JSON/);
    expect(corrections[1]).toContain('string "name"');
    expect(corrections[2]).toContain('"arguments" must be a JSON object');
    expect(corrections[3]).toContain('there is no tool "rm_everything"');
    expect(corrections[3]).toContain('Tools: bash, kubectl');
  });
});

describe('a text-only model in prompted mode', () => {
  let harness: AgentHarness;
  beforeAll(async () => {
    // tool_calling auto: Ollama's /api/show says this model has no `tools` capability.
    harness = await startAgentHarness({ provider: 'ollama', model: 'wire-text', toolCalling: 'auto' });
  });
  afterAll(async () => harness.close());
  beforeEach(() => harness.wire.reset());

  type OllamaBody = { tools?: unknown[]; messages: { role: string; content: string }[] };
  const chatBody = (index: number): OllamaBody => harness.wire.chatRequests()[index]?.body as OllamaBody;

  it('runs a fenced call through analysis and approval, and sends its result back as a message', async () => {
    const call = block('{"name": "bash", "arguments": {"command": "touch prompted-file && echo made"}}');
    harness.wire.script([{ text: ['I will create it.\n', call] }, { text: ['Created.'] }]);
    const { events, outcome } = await harness.turn('Make a file', {
      role: 'user',
      onEvent: (event) => {
        if (event.event === 'tool_request') harness.approvals.decide(harness.principal('user'), event.data.id, true);
      },
    });
    expect(eventsNamed(events, 'tool_request')[0]).toMatchObject({
      tool: 'bash',
      command: 'touch prompted-file && echo made',
      requiresApproval: true,
    });
    expect(eventsNamed(events, 'tool_execution')[0]).toMatchObject({ status: 'executed', result: 'made\n' });
    expect(outcome.states).toEqual(['Idle', 'Running', 'ToolAnalysis', 'WaitingForApproval', 'Running', 'Done', 'Idle']);
    expect(harness.wire.requests.some((request) => request.path === '/api/show')).toBe(true);
    const first = chatBody(0);
    expect(first.tools).toBeUndefined();
    expect(first.messages[0]?.content).toContain('```tool_call');
    expect(first.messages[0]?.content).toContain('- bash: ');
    const followUp = chatBody(1).messages;
    expect(followUp.at(-2)).toMatchObject({ role: 'assistant', content: expect.stringContaining('"touch prompted-file && echo made"') });
    expect(followUp.at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/^Tool result of bash \(call [\w]+\):\nmade\n$/) });
    const executes = harness.audit.query({ action: 'execute', limit: 10, offset: 0 }).items;
    expect(executes[0]).toMatchObject({ resource: 'tool/bash', details: expect.objectContaining({ command: 'touch prompted-file && echo made' }) });
  });

  it('answers a malformed call with a correction instead of running it, and the model tries again', async () => {
    harness.wire.script([{ text: [block('{"name": "bash", "arguments": {"command": "echo hi"')] }, { text: ['Sorry, nothing to run.'] }]);
    const { events, outcome } = await harness.turn('Say hi');
    expect(eventsNamed(events, 'tool_request')).toEqual([]);
    expect(eventsNamed(events, 'tool_execution')).toEqual([
      { id: expect.any(String), status: 'error', result: expect.stringMatching(/^Correction: .*not valid JSON/) },
    ]);
    expect(outcome.reason).toBe('final_answer');
    expect(chatBody(1).messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('Correction: your tool call was not run') });
  });
});
