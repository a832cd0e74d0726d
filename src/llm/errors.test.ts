import { describe, expect, it } from 'vitest';
import { isRetryableFailure, scrubSecrets, toLlmError } from './errors.js';
import { normalizeFinishReason } from './finish-reason.js';

describe('LLM errors', () => {
  it('scrubs configured secrets and key-shaped strings', () => {
    const text = 'bad key my-very-secret, also sk-proj-abcdef123456 and AIzaSyA1234567890abcdef';
    const scrubbed = scrubSecrets(text, ['my-very-secret']);
    expect(scrubbed).toBe('bad key [REDACTED], also [REDACTED] and [REDACTED]');
  });

  it('retries timeouts, 408, 429 and 5xx only', () => {
    expect([408, 429, 500, 503].map((status) => isRetryableFailure({ message: '', status }))).toEqual([true, true, true, true]);
    expect([400, 401, 403, 404].map((status) => isRetryableFailure({ message: '', status }))).toEqual([false, false, false, false]);
    expect(isRetryableFailure({ message: '', timeout: true })).toBe(true);
    expect(isRetryableFailure({ message: '', aborted: true, status: 500 })).toBe(false);
  });

  it('builds an LLM_ERROR with provider and status in details', () => {
    const error = toLlmError('openai', { message: 'Incorrect API key provided: k3y-value', status: 401 }, ['k3y-value']);
    expect(error.code).toBe('LLM_ERROR');
    expect(error.details).toEqual({ provider: 'openai', status: 401, providerMessage: 'Incorrect API key provided: [REDACTED]' });
    expect(error.message).not.toContain('k3y-value');
  });
});

describe('finish reasons', () => {
  it('normalises provider vocabularies', () => {
    expect(['STOP', 'end_turn', 'MAX_TOKENS', 'max_tokens', 'SAFETY', 'guardrail_intervened'].map((raw) => normalizeFinishReason(raw, false))).toEqual([
      'stop',
      'stop',
      'length',
      'length',
      'content_filter',
      'content_filter',
    ]);
    expect(normalizeFinishReason('stop', true)).toBe('tool_calls');
    expect(normalizeFinishReason(undefined, false)).toBe('stop');
  });
});
