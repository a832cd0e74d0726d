import { describe, expect, it } from 'vitest';
import { llmBody, type LlmDraft } from './llm-types';

describe('LLM settings body', () => {
  it('keeps the key unless one is typed or removal is asked', () => {
    const draft: LlmDraft = { provider: 'openai', model: ' gpt ', baseUrl: '', apiKey: '', removeKey: false };
    expect(llmBody(draft)).toEqual({ provider: 'openai', model: 'gpt', base_url: null });
    expect(llmBody({ ...draft, apiKey: 'sk-1', baseUrl: 'https://example.test/v1' })).toEqual({
      provider: 'openai',
      model: 'gpt',
      api_key: 'sk-1',
      base_url: 'https://example.test/v1',
    });
    expect(llmBody({ ...draft, apiKey: 'sk-1', removeKey: true })).toEqual({ provider: 'openai', model: 'gpt', api_key: '', base_url: null });
  });
});
