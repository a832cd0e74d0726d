import { AppError } from '../errors.js';
import type { LlmProvider } from '../llm/types.js';

/** What "Test connection" shows: the model's answer, or why there is none. */
export interface LlmConnectionResult {
  ok: boolean;
  provider: string;
  model: string;
  answer?: string;
  error?: string;
  code?: string;
}

const longestAnswer = 400;
const testTimeoutMs = 20_000;

/** One tiny chat turn with the configured provider: proves the URL, the key and the model together. */
export async function testLlmConnection(provider: LlmProvider, model: string): Promise<LlmConnectionResult> {
  const signal = AbortSignal.timeout(testTimeoutMs);
  const messages = [
    { role: 'system' as const, content: 'This is a connection test from Pilothouse.' },
    { role: 'user' as const, content: 'Reply with the single word OK.' },
  ];
  let answer = '';
  try {
    for await (const event of provider.streamChat({ messages, tools: [], signal })) {
      if (event.type === 'text') answer += event.text;
      if (answer.length > longestAnswer) break;
    }
    return { ok: true, provider: provider.name, model, answer: answer.slice(0, longestAnswer).trim() };
  } catch (error) {
    const known = error instanceof AppError;
    return { ok: false, provider: provider.name, model, error: known ? error.message : 'the provider did not answer', code: known ? error.code : 'LLM_ERROR' };
  }
}
