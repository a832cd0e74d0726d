import { AzureOpenAI } from 'openai';
import { streamOpenAiChat } from './openai-chat.js';
import { describeOpenAiError } from './openai-errors.js';
import { runProviderCheck } from '../../provider-check.js';
import { runProviderStream } from '../../provider-stream.js';
import { buildRuntime, checkTimeoutOf, lazy } from '../../runtime.js';
import type { LlmConfig, LlmProvider, LlmProviderOptions } from '../../types.js';

const defaultApiVersion = '2024-10-21';

/**
 * Azure OpenAI through the `openai` SDK's AzureOpenAI client:
 * POST {azure_endpoint}/openai/deployments/{azure_deployment}/chat/completions?api-version=...
 * with the `api-key` header. `azure_endpoint` falls back to `base_url`, the deployment to `model`.
 */
export function createAzureProvider(config: LlmConfig, options: LlmProviderOptions = {}): LlmProvider {
  const runtime = buildRuntime(config, options, describeOpenAiError);
  const deployment = config.azure_deployment ?? config.model;
  const client = lazy(
    () =>
      new AzureOpenAI({
        endpoint: config.azure_endpoint ?? config.base_url,
        deployment,
        apiVersion: config.azure_api_version ?? defaultApiVersion,
        apiKey: config.api_key,
        maxRetries: 0,
        timeout: config.timeout,
      }),
  );
  return {
    name: 'azure',
    streamChat: (request) => runProviderStream(runtime, (attempt) => streamOpenAiChat(client(), deployment, request, attempt), request.signal),
    check: (signal) =>
      runProviderCheck((probeSignal) => client().models.list({ signal: probeSignal }), describeOpenAiError, checkTimeoutOf(config, options), signal),
  };
}
