import { expect } from 'vitest';
import { describeProviderConformance, kubectlGet, wireApiKey } from '../../../../test/helpers/llm-wire/conformance.js';

describeProviderConformance({
  provider: 'azure',
  config: (url) => ({ azure_endpoint: url, azure_deployment: 'pilot-deployment', azure_api_version: '2024-10-21' }),
  toolsSent: (body) =>
    expect(body).toMatchObject({
      stream: true,
      tools: [{ type: 'function', function: { name: 'kubectl_get', parameters: kubectlGet.inputSchema } }],
    }),
  toolResultSent: (body, call) =>
    expect(body).toMatchObject({
      messages: expect.arrayContaining([
        { role: 'assistant', content: null, tool_calls: [expect.objectContaining({ id: call.id })] },
        { role: 'tool', tool_call_id: call.id, content: 'pod-a Running' },
      ]),
    }),
  requestShape: (request) => {
    expect(request.path).toBe('/openai/deployments/pilot-deployment/chat/completions');
    expect(request.query).toEqual({ 'api-version': '2024-10-21' });
    expect(request.headers['api-key']).toBe(wireApiKey);
    expect(request.headers.authorization).toBeUndefined();
  },
});
