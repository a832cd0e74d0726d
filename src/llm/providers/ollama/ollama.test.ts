import { expect } from 'vitest';
import { describeProviderConformance, kubectlGet, wireApiKey } from '../../../../test/helpers/llm-wire/conformance.js';

describeProviderConformance({
  reportsCachedTokens: false,
  provider: 'ollama',
  config: (url) => ({ base_url: url }),
  toolsSent: (body) =>
    expect(body).toMatchObject({
      model: 'wire-model',
      stream: true,
      messages: [{ role: 'system', content: 'You are the Pilothouse pilot.' }, { role: 'user' }],
      tools: [{ type: 'function', function: { name: 'kubectl_get', description: kubectlGet.description, parameters: kubectlGet.inputSchema } }],
    }),
  toolResultSent: (body) =>
    expect(body).toMatchObject({
      messages: expect.arrayContaining([
        { role: 'assistant', content: '', tool_calls: [{ function: { name: 'kubectl_get', arguments: { resource: 'pods' } } }] },
        { role: 'tool', content: 'pod-a Running', tool_name: 'kubectl_get' },
      ]),
    }),
  requestShape: (request) => {
    expect(request.path).toBe('/api/chat');
    expect(request.headers.authorization).toBe(`Bearer ${wireApiKey}`);
  },
});
