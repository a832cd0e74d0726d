import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { isAppError } from '../../errors.js';
import { createLlmProvider } from './index.js';
import type { LlmConfig } from '../types.js';

const providers: LlmConfig['provider'][] = ['openai', 'azure', 'ollama', 'gemini', 'bedrock'];
const credentialVariables = ['OPENAI_API_KEY', 'AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_ENDPOINT', 'OPENAI_API_VERSION', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'];

describe('createLlmProvider', () => {
  const saved = new Map<string, string | undefined>();
  beforeEach(() => {
    for (const name of credentialVariables) {
      saved.set(name, process.env[name]);
      delete process.env[name];
    }
  });
  afterEach(() => {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  });

  it.each(providers)('builds %s from the default config without throwing', (provider) => {
    const config = configSchema.parse({ llm: { provider, model: 'some-model' } }).llm;
    const llm = createLlmProvider(config);
    expect(llm.name).toBe(provider);
  });

  it.each(['openai', 'azure'] as const)('turns a missing %s credential into LLM_ERROR at request time', async (provider) => {
    const llm = createLlmProvider(configSchema.parse({ llm: { provider, model: 'some-model', max_retries: 0 } }).llm);
    const stream = llm.streamChat({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
    const error = await (async () => {
      for await (const event of stream) void event;
    })().catch((caught: unknown) => caught);
    expect(isAppError(error) && error.code).toBe('LLM_ERROR');
    expect(await llm.check()).toBe('unavailable');
  });
});
