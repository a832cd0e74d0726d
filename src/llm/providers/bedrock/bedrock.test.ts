import { describe, expect, it } from 'vitest';
import { describeProviderConformance, kubectlGet } from '../../../../test/helpers/llm-wire/conformance.js';
import { decodeEventStreamMessage, encodeBedrockEvent } from '../../../../test/helpers/llm-wire/index.js';
import { bedrockCredentials } from './bedrock.js';

const accessKeyId = 'AKIDWIRE0123';
const secretAccessKey = 'wire-secret-access-key';

describeProviderConformance({
  provider: 'bedrock',
  config: (url) => ({ base_url: url, region: 'eu-west-1', model: 'anthropic.claude-wire:0', api_key: `${accessKeyId}:${secretAccessKey}` }),
  toolsSent: (body) =>
    expect(body).toMatchObject({
      system: [{ text: 'You are the Pilothouse pilot.' }],
      messages: [{ role: 'user', content: [{ text: 'Which pods run in default?' }] }],
      toolConfig: { tools: [{ toolSpec: { name: 'kubectl_get', description: kubectlGet.description, inputSchema: { json: kubectlGet.inputSchema } } }] },
    }),
  toolResultSent: (body, call) =>
    expect(body).toMatchObject({
      messages: [
        { role: 'user' },
        { role: 'assistant', content: [{ toolUse: { toolUseId: call.id, name: 'kubectl_get', input: { resource: 'pods' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: call.id, content: [{ text: 'pod-a Running' }] } }] },
      ],
    }),
  requestShape: (request) => {
    expect(request.path).toBe('/model/anthropic.claude-wire:0/converse-stream');
    expect(request.httpVersion).toBe('2.0');
    expect(String(request.headers.authorization)).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${accessKeyId}/\\d{8}/eu-west-1/bedrock/aws4_request`));
    expect(JSON.stringify(request.headers)).not.toContain(secretAccessKey);
  },
});

describe('bedrock credentials', () => {
  it('reads an IAM key pair, an optional session token, or a Bedrock API key', () => {
    expect(bedrockCredentials('AKID:SECRET')).toEqual({ credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET' } });
    expect(bedrockCredentials('AKID:SECRET:TOKEN')).toMatchObject({ credentials: { sessionToken: 'TOKEN' } });
    expect(bedrockCredentials('bedrock-api-key')).toEqual({ token: { token: 'bedrock-api-key' }, authSchemePreference: ['httpBearerAuth'] });
    expect(bedrockCredentials(undefined)).toEqual({});
  });
});

describe('wire event-stream encoder', () => {
  it('writes frames whose checksums and headers decode', () => {
    const frame = encodeBedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hi' } });
    const decoded = decodeEventStreamMessage(frame);
    expect(frame.readUInt32BE(0)).toBe(frame.length);
    expect(decoded.headers).toEqual({ ':event-type': 'contentBlockDelta', ':content-type': 'application/json', ':message-type': 'event' });
    expect(JSON.parse(decoded.payload.toString('utf8'))).toEqual({ contentBlockIndex: 0, delta: { text: 'hi' } });
    frame.writeUInt8(frame.readUInt8(frame.length - 6) ^ 1, frame.length - 6);
    expect(() => decodeEventStreamMessage(frame)).toThrow('message checksum mismatch');
  });
});
