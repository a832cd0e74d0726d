import { describe, expect, it } from 'vitest';
import { describeProviderConformance, kubectlGet, useWireHarness, wireApiKey, type ProviderTarget } from '../../../../test/helpers/llm-wire/conformance.js';
import { collectStream, toolCallsOf } from '../../../../test/helpers/llm-wire/index.js';

const target: ProviderTarget = {
  provider: 'openai',
  config: (url) => ({ base_url: `${url}/v1` }),
  toolsSent: (body) =>
    expect(body).toMatchObject({
      model: 'wire-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'system' }, { role: 'user', content: 'Which pods run in default?' }],
      tools: [{ type: 'function', function: { name: 'kubectl_get', description: kubectlGet.description, parameters: kubectlGet.inputSchema } }],
    }),
  toolResultSent: (body, call) =>
    expect(body).toMatchObject({
      messages: expect.arrayContaining([
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: call.id, type: 'function', function: { name: 'kubectl_get', arguments: '{"resource":"pods"}' } }],
        },
        { role: 'tool', tool_call_id: call.id, content: 'pod-a Running' },
      ]),
    }),
  requestShape: (request) => {
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${wireApiKey}`);
  },
};

describeProviderConformance(target);

describe('openai tool-call arguments', () => {
  const harness = useWireHarness(target);

  it('keeps the provider id and turns malformed JSON into { _raw }', async () => {
    harness.server.script([{ toolCalls: [{ id: 'call_given', name: 'kubectl_get', arguments: '{"resource": "pods"' }] }]);
    const { events, error } = await collectStream(harness.provider().streamChat({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
    expect(error).toBeUndefined();
    expect(toolCallsOf(events)).toEqual([{ id: 'call_given', name: 'kubectl_get', arguments: { _raw: '{"resource": "pods"' } }]);
    expect(harness.server.chatRequests()[0]?.body).not.toHaveProperty('tools');
  });
});
