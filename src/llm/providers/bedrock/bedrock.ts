import { BedrockRuntimeClient, ConverseStreamCommand, CountTokensCommand, type BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';
import { toBedrockConversation, toBedrockTools } from './bedrock-messages.js';
import { BedrockStreamReader } from './bedrock-stream.js';
import { messageOf, type ProviderFailure } from '../../errors.js';
import { normalizeFinishReason } from '../../finish-reason.js';
import { runProviderCheck } from '../../provider-check.js';
import { runProviderStream, type AttemptContext } from '../../provider-stream.js';
import { buildRuntime, checkTimeoutOf, lazy } from '../../runtime.js';
import { usageField } from '../../usage.js';
import type { LlmChatRequest, LlmConfig, LlmProvider, LlmProviderOptions, LlmStreamEvent } from '../../types.js';

/** Reads `$metadata.httpStatusCode` and the message of an AWS SDK service exception. */
export function describeBedrockError(error: unknown): ProviderFailure {
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  if (typeof status === 'number') return { message: messageOf(error), status };
  return { message: messageOf(error) };
}

/**
 * Credentials from `api_key`: `accessKeyId:secretAccessKey[:sessionToken]` is an IAM key
 * pair, a value without `:` is a Bedrock API key (Bearer). Without `api_key` the AWS
 * default chain applies (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profile, instance role).
 */
export function bedrockCredentials(apiKey: string | undefined): Partial<BedrockRuntimeClientConfig> {
  if (!apiKey) return {};
  const [accessKeyId = '', secretAccessKey = '', sessionToken] = apiKey.split(':');
  if (!apiKey.includes(':')) return { token: { token: apiKey }, authSchemePreference: ['httpBearerAuth'] };
  return { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } };
}

function buildClient(config: LlmConfig): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    region: config.region ?? process.env.AWS_REGION ?? 'us-east-1',
    maxAttempts: 1,
    ...(config.base_url ? { endpoint: config.base_url } : {}),
    ...bedrockCredentials(config.api_key),
  });
}

async function* streamBedrockChat(
  client: BedrockRuntimeClient,
  model: string,
  request: LlmChatRequest,
  attempt: AttemptContext,
): AsyncGenerator<LlmStreamEvent> {
  const conversation = toBedrockConversation(request.messages);
  const tools = toBedrockTools(request.tools);
  const command = new ConverseStreamCommand({
    modelId: model,
    messages: conversation.messages,
    ...(conversation.system.length ? { system: conversation.system } : {}),
    ...(tools.length ? { toolConfig: { tools } } : {}),
  });
  const response = await client.send(command, { abortSignal: attempt.signal });
  const reader = new BedrockStreamReader();
  for await (const event of response.stream ?? []) {
    attempt.touch();
    const converted = reader.read(event);
    if (converted) yield converted;
  }
  yield { type: 'done', finishReason: normalizeFinishReason(reader.stopReason, reader.sawToolCalls), ...usageField(reader.usage) };
}

/**
 * Amazon Bedrock through `@aws-sdk/client-bedrock-runtime` ConverseStream
 * (POST /model/{modelId}/converse-stream). `region` picks the region, `base_url`
 * overrides the endpoint. check() counts the tokens of a one-word message (free).
 */
export function createBedrockProvider(config: LlmConfig, options: LlmProviderOptions = {}): LlmProvider {
  const runtime = buildRuntime(config, options, describeBedrockError);
  const client = lazy(() => buildClient(config));
  const probe = (): CountTokensCommand =>
    new CountTokensCommand({
      modelId: config.model,
      input: { converse: { messages: [{ role: 'user', content: [{ text: 'ping' }] }] } },
    });
  return {
    name: 'bedrock',
    streamChat: (request) => runProviderStream(runtime, (attempt) => streamBedrockChat(client(), config.model, request, attempt), request.signal),
    check: (signal) =>
      runProviderCheck((probeSignal) => client().send(probe(), { abortSignal: probeSignal }), describeBedrockError, checkTimeoutOf(config, options), signal),
  };
}
