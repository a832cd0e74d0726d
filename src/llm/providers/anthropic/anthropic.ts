import Anthropic, { APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { toAnthropicConversation, toAnthropicTools } from './anthropic-messages.js';
import { AnthropicStreamReader } from './anthropic-stream.js';
import { messageOf, type ProviderFailure } from '../../errors.js';
import { normalizeFinishReason } from '../../finish-reason.js';
import { runProviderCheck } from '../../provider-check.js';
import { runProviderStream, type AttemptContext } from '../../provider-stream.js';
import { buildRuntime, checkTimeoutOf, lazy } from '../../runtime.js';
import type { LlmChatRequest, LlmConfig, LlmProvider, LlmProviderOptions, LlmStreamEvent } from '../../types.js';
import { usageField } from '../../usage.js';

/** The answer's token limit (the Messages API requires one). */
const maxOutputTokens = 8_192;

/** Statuses of the error types an `error` event in a started stream carries (it has no HTTP status of its own). */
const statusByErrorType: Record<string, number> = {
  overloaded_error: 529,
  api_error: 500,
  rate_limit_error: 429,
  timeout_error: 504,
};

/** Reads status and message from an `@anthropic-ai/sdk` error, HTTP errors and in-stream `error` events alike. */
export function describeAnthropicError(error: unknown): ProviderFailure {
  if (error instanceof APIConnectionTimeoutError) return { message: error.message, timeout: true };
  if (error instanceof APIUserAbortError) return { message: error.message, aborted: true };
  if (!(error instanceof APIError)) return { message: messageOf(error) };
  const message = error.apiMessage ?? error.message;
  const status = error.status ?? (error.type ? statusByErrorType[error.type] : undefined);
  return status === undefined ? { message } : { message, status };
}

async function* streamAnthropicChat(client: Anthropic, model: string, request: LlmChatRequest, attempt: AttemptContext): AsyncGenerator<LlmStreamEvent> {
  const conversation = toAnthropicConversation(request.messages);
  const tools = toAnthropicTools(request.tools);
  const stream = await client.messages.create(
    {
      model,
      max_tokens: maxOutputTokens,
      stream: true,
      messages: conversation.messages,
      ...(conversation.system.length ? { system: conversation.system } : {}),
      ...(tools.length ? { tools } : {}),
    },
    { signal: attempt.signal },
  );
  const reader = new AnthropicStreamReader();
  for await (const event of stream) {
    attempt.touch();
    const converted = reader.read(event);
    if (converted) yield converted;
  }
  const usage = reader.usage();
  yield { type: 'done', finishReason: normalizeFinishReason(reader.stopReason, reader.sawToolCalls), ...usageField(usage) };
}

/**
 * Anthropic's Messages API through the official `@anthropic-ai/sdk` (POST {base_url}/v1/messages, SSE).
 * `base_url` points at a gateway; without `api_key` the SDK reads ANTHROPIC_API_KEY. The system prompt
 * and the tool definitions are marked for prompt caching. check() counts the tokens of one word (free).
 */
export function createAnthropicProvider(config: LlmConfig, options: LlmProviderOptions = {}): LlmProvider {
  const runtime = buildRuntime(config, options, describeAnthropicError);
  const client = lazy(
    () =>
      new Anthropic({
        apiKey: config.api_key ?? process.env.ANTHROPIC_API_KEY ?? (config.base_url ? 'unused' : undefined),
        ...(config.base_url ? { baseURL: config.base_url } : {}),
        maxRetries: 0,
        timeout: config.timeout || undefined,
      }),
  );
  const probe = (signal: AbortSignal): Promise<unknown> =>
    client().messages.countTokens({ model: config.model, messages: [{ role: 'user', content: 'ping' }] }, { signal });
  return {
    name: 'anthropic',
    streamChat: (request) => runProviderStream(runtime, (attempt) => streamAnthropicChat(client(), config.model, request, attempt), request.signal),
    check: (signal) => runProviderCheck(probe, describeAnthropicError, checkTimeoutOf(config, options), signal),
  };
}
