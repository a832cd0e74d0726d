import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsNamed, startAgentHarness, type AgentHarness } from '../../test/helpers/agent-harness.js';
import type { LlmMessage } from '../llm/types.js';
import { contextTokensOf } from '../llm/context-window.js';
import { cutToolOutput, fitConversation, omittedNote } from './context-fit.js';

const turn = (question: string, output: string, answer: string): LlmMessage[] => [
  { role: 'user', content: question },
  { role: 'assistant', content: '', toolCalls: [{ id: `call_${question}`, name: 'bash', arguments: {} }] },
  { role: 'tool', toolCallId: `call_${question}`, name: 'bash', content: output },
  { role: 'assistant', content: answer },
];

describe('fitting the conversation to the context', () => {
  it('cuts a long tool result around a marker that says how much is left out and how to narrow the command', () => {
    const output = Array.from({ length: 5_000 }, (_, index) => `line ${index}`).join('\n');
    const cut = cutToolOutput(output, 1_000);
    // The kept head and tail fill the limit; the marker and hint add at most 400 characters.
    expect(cut.length).toBeLessThanOrEqual(1_400);
    expect(cut.startsWith('line 0\nline 1')).toBe(true);
    expect(cut.endsWith('line 4999')).toBe(true);
    expect(cut).toMatch(/output cut for the model: \d+ of \d+ characters left out/);
    expect(cut).toContain('Narrow the command');
    expect(cutToolOutput('short', 1_000)).toBe('short');
  });

  it('keeps the newest two turns whole and shortens, then leaves out, older ones', () => {
    const big = 'x'.repeat(3_000);
    const messages: LlmMessage[] = [
      { role: 'system', content: 'system prompt' },
      ...turn('q1', big, 'a1 '.repeat(2_000)),
      ...turn('q2', big, 'a2'),
      ...turn('q3', big, 'a3'),
      ...turn('q4', 'small', 'a4'),
    ];
    // 4,000 tokens: a tool result may fill 3,200 characters, the conversation 12,000.
    const fitted = fitConversation(messages, { contextTokens: 4_000, toolOutputShare: 0.2 });
    const content = (question: string, role: LlmMessage['role']): string | undefined => {
      const start = fitted.findIndex((message) => message.role === 'user' && message.content.endsWith(question));
      return start < 0 ? undefined : fitted.slice(start).find((message) => message.role === role)?.content;
    };
    expect(content('q3', 'tool')).toBe(big);
    expect(content('q4', 'tool')).toBe('small');
    expect(content('q2', 'tool')?.length).toBeLessThanOrEqual(1_200);
    expect(content('q1', 'assistant')?.length).toBeLessThanOrEqual(2_100);
    expect(fitted[0]).toEqual({ role: 'system', content: 'system prompt' });

    const tight = fitConversation(messages, { contextTokens: 1_200, toolOutputShare: 0.6 });
    expect(tight.filter((message) => message.role === 'user').map((message) => message.content.split('\n').at(-1))).toEqual(['q3', 'q4']);
    expect(tight[1]?.content.startsWith(omittedNote)).toBe(true);
    // Every kept tool result still follows its call.
    expect(tight.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
  });

  it('knows the context windows of common models and prefers llm.context_tokens', () => {
    expect(contextTokensOf('claude-sonnet-4-5')).toBe(200_000);
    expect(contextTokensOf('gpt-4o-mini')).toBe(128_000);
    expect(contextTokensOf('llama3.1:8b')).toBe(131_072);
    expect(contextTokensOf('something-local')).toBe(32_768);
    expect(contextTokensOf('gpt-4o', 16_000)).toBe(16_000);
  });
});

describe('an oversized tool result', () => {
  let harness: AgentHarness;
  beforeAll(async () => {
    harness = await startAgentHarness({ llm: { context_tokens: 2_000, tool_output_share: 0.15 } });
  });
  afterAll(async () => harness.close());

  it('reaches the model cut with a marker, and the user and the history whole', async () => {
    harness.wire.script([
      { toolCalls: [{ name: 'bash', arguments: { command: "awk 'BEGIN { for (i = 1; i <= 3000; i++) print i }'" } }] },
      { text: ['Many numbers.'] },
    ]);
    const { events, sessionId } = await harness.turn('Count');
    const whole = Array.from({ length: 3_000 }, (_, index) => String(index + 1)).join('\n') + '\n';
    expect(eventsNamed(events, 'tool_execution')[0]?.result).toBe(whole);
    const sent = (harness.wire.chatRequests()[1]?.body as { messages: { role: string; content: string }[] }).messages.at(-1);
    expect(sent?.role).toBe('tool');
    // 2,000 tokens × 0.15 × 4 characters
    expect(sent?.content.length).toBeLessThanOrEqual(1_600);
    expect(sent?.content).toContain('output cut for the model');
    expect(sent?.content.startsWith('1\n2\n3\n')).toBe(true);
    const history = await harness.chat.history(harness.principal(), sessionId);
    const call = history.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []))[0];
    expect(call?.result).toBe(whole);
  });
});
