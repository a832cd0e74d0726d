import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../errors.js';
import { describeProviderConformance, kubectlGet, useWireHarness, wireApiKey, type ProviderTarget } from '../../../../test/helpers/llm-wire/conformance.js';
import { collectStream, textsOf } from '../../../../test/helpers/llm-wire/index.js';
import type { LlmMessage } from '../../types.js';

const target: ProviderTarget = {
  provider: 'anthropic',
  config: (url) => ({ base_url: url, model: 'claude-wire' }),
  toolsSent: (body) =>
    expect(body).toMatchObject({
      model: 'claude-wire',
      stream: true,
      max_tokens: expect.any(Number),
      system: [{ type: 'text', text: 'You are the Pilothouse pilot.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Which pods run in default?' }] }],
      tools: [{ name: 'kubectl_get', description: kubectlGet.description, input_schema: kubectlGet.inputSchema, cache_control: { type: 'ephemeral' } }],
    }),
  toolResultSent: (body, call) =>
    expect(body).toMatchObject({
      messages: [
        { role: 'user' },
        { role: 'assistant', content: [{ type: 'tool_use', id: call.id, name: 'kubectl_get', input: { resource: 'pods' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'pod-a Running' }] },
      ],
    }),
  requestShape: (request) => {
    expect(request.path).toBe('/v1/messages');
    expect(request.headers.authorization).toBe(`Bearer ${wireApiKey}`);
    expect(request.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  },
};

describeProviderConformance(target);

describe('anthropic streams', () => {
  const harness = useWireHarness(target);
  const asks: LlmMessage[] = [
    { role: 'system', content: 'stable prompt' },
    { role: 'user', content: 'hi' },
  ];

  it('retries an overloaded_error event that arrives before any output', async () => {
    harness.server.script([{ streamError: { type: 'overloaded_error', message: 'Overloaded' } }, { text: ['back'] }]);
    const { events, error } = await collectStream(harness.provider().streamChat({ messages: asks, tools: [] }));
    expect(error).toBeUndefined();
    expect(textsOf(events)).toEqual(['back']);
    expect(harness.sleeps).toEqual([100]);
    expect(harness.server.chatRequests()[0]?.body).not.toHaveProperty('tools');
  });

  it('fails an invalid_request_error event at once with LLM_ERROR and its message', async () => {
    harness.server.script([{ streamError: { type: 'invalid_request_error', message: 'prompt is too long' } }, { text: ['unused'] }]);
    const { error } = await collectStream(harness.provider().streamChat({ messages: asks, tools: [] }));
    expect(isAppError(error) && error.code).toBe('LLM_ERROR');
    expect(isAppError(error) && error.details.providerMessage).toBe('prompt is too long');
    expect(harness.server.pendingTurns()).toBe(1);
  });

  it('merges consecutive tool results into one user message', async () => {
    harness.server.script([{ text: ['ok'] }]);
    const calls = [
      { id: 'toolu_a', name: 'kubectl_get', arguments: { resource: 'pods' } },
      { id: 'toolu_b', name: 'kubectl_get', arguments: { resource: 'nodes' } },
    ];
    const messages: LlmMessage[] = [
      ...asks,
      { role: 'assistant', content: 'Looking.', toolCalls: calls },
      { role: 'tool', toolCallId: 'toolu_a', name: 'kubectl_get', content: 'a' },
      { role: 'tool', toolCallId: 'toolu_b', name: 'kubectl_get', content: 'b' },
    ];
    await collectStream(harness.provider().streamChat({ messages, tools: [kubectlGet] }));
    const body = harness.server.chatRequests()[0]?.body as { messages: { role: string; content: unknown[] }[] };
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[1]?.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'toolu_a', name: 'kubectl_get', input: { resource: 'pods' } },
      { type: 'tool_use', id: 'toolu_b', name: 'kubectl_get', input: { resource: 'nodes' } },
    ]);
    expect(body.messages[2]?.content).toHaveLength(2);
  });
});
