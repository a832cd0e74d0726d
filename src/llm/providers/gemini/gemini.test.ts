import { expect } from 'vitest';
import { describeProviderConformance, kubectlGet, wireApiKey } from '../../../../test/helpers/llm-wire/conformance.js';

describeProviderConformance({
  provider: 'gemini',
  config: (url) => ({ base_url: url }),
  toolsSent: (body) =>
    expect(body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'Which pods run in default?' }] }],
      systemInstruction: { parts: [{ text: 'You are the Pilothouse pilot.' }] },
      tools: [{ functionDeclarations: [{ name: 'kubectl_get', description: kubectlGet.description, parametersJsonSchema: kubectlGet.inputSchema }] }],
    }),
  toolResultSent: (body) =>
    expect(body).toMatchObject({
      contents: [
        { role: 'user' },
        { role: 'model', parts: [{ functionCall: { name: 'kubectl_get', args: { resource: 'pods' } }, thoughtSignature: 'signature-0' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'kubectl_get', response: { output: 'pod-a Running' } } }] },
      ],
    }),
  requestShape: (request) => {
    expect(request.path).toBe('/v1beta/models/wire-model:streamGenerateContent');
    expect(request.query).toEqual({ alt: 'sse' });
    expect(request.headers['x-goog-api-key']).toBe(wireApiKey);
  },
});
