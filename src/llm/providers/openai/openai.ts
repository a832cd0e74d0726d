import { OpenAI } from 'openai';
import { streamOpenAiChat } from './openai-chat.js';
import { describeOpenAiError } from './openai-errors.js';
import { runProviderCheck } from '../../provider-check.js';
import { runProviderStream } from '../../provider-stream.js';
import { buildRuntime, checkTimeoutOf, lazy } from '../../runtime.js';
import type { LlmConfig, LlmProvider, LlmProviderOptions } from '../../types.js';

/**
 * OpenAI and OpenAI-compatible servers (`base_url`), through the official `openai` SDK.
 * Without `api_key` the SDK reads OPENAI_API_KEY; a custom `base_url` may run keyless.
 */
export function createOpenAiProvider(config: LlmConfig, options: LlmProviderOptions = {}): LlmProvider {
  const runtime = buildRuntime(config, options, describeOpenAiError);
  const client = lazy(
    () =>
      new OpenAI({
        apiKey: config.api_key ?? (config.base_url ? 'unused' : undefined),
        baseURL: config.base_url,
        maxRetries: 0,
        timeout: config.timeout,
      }),
  );
  return {
    name: 'openai',
    streamChat: (request) => runProviderStream(runtime, (attempt) => streamOpenAiChat(client(), config.model, request, attempt), request.signal),
    check: (signal) =>
      runProviderCheck((probeSignal) => client().models.list({ signal: probeSignal }), describeOpenAiError, checkTimeoutOf(config, options), signal),
  };
}
