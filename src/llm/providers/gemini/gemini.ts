import { ApiError, GoogleGenAI, type GenerateContentResponse, type Part } from '@google/genai';
import { messageOf, type ProviderFailure } from '../../errors.js';
import { normalizeFinishReason } from '../../finish-reason.js';
import { GeminiCallMemory } from './gemini-call-memory.js';
import { toGeminiConversation, toGeminiFunctions } from './gemini-messages.js';
import { runProviderCheck } from '../../provider-check.js';
import { runProviderStream, type AttemptContext } from '../../provider-stream.js';
import { buildRuntime, checkTimeoutOf, lazy } from '../../runtime.js';
import { newToolCallId, toArgumentsObject } from '../../tool-calls.js';
import type { LlmChatRequest, LlmConfig, LlmProvider, LlmProviderOptions, LlmStreamEvent, LlmUsage } from '../../types.js';
import { usageField, usageOf } from '../../usage.js';

/** The SDK's ApiError message is the JSON error body; keep only its `error.message`. */
export function describeGeminiError(error: unknown): ProviderFailure {
  if (!(error instanceof ApiError)) return { message: messageOf(error) };
  try {
    const body = JSON.parse(error.message) as { error?: { message?: unknown } };
    const message = typeof body.error?.message === 'string' ? body.error.message : error.message;
    return { message, status: error.status };
  } catch {
    return { message: error.message, status: error.status };
  }
}

function partEvent(part: Part, memory: GeminiCallMemory): LlmStreamEvent | undefined {
  if (part.functionCall) {
    const providerId = part.functionCall.id;
    const id = providerId ?? newToolCallId();
    memory.remember(id, { providerId, thoughtSignature: part.thoughtSignature });
    const call = { id, name: part.functionCall.name ?? '', arguments: toArgumentsObject(part.functionCall.args) };
    return { type: 'tool_call', call };
  }
  if (part.text && !part.thought) return { type: 'text', text: part.text };
  return undefined;
}

function chunkEvents(chunk: GenerateContentResponse, memory: GeminiCallMemory): LlmStreamEvent[] {
  const parts = chunk.candidates?.[0]?.content?.parts ?? [];
  return parts.map((part) => partEvent(part, memory)).filter((event) => event !== undefined);
}

/** usageMetadata: the prompt (cached part included), the answer and its thoughts. */
function geminiUsage(chunk: GenerateContentResponse): LlmUsage | undefined {
  const metadata = chunk.usageMetadata;
  if (!metadata) return undefined;
  const output = (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0);
  return usageOf(metadata.promptTokenCount, output, metadata.cachedContentTokenCount);
}

async function* streamGeminiChat(
  client: GoogleGenAI,
  context: { model: string; memory: GeminiCallMemory },
  request: LlmChatRequest,
  attempt: AttemptContext,
): AsyncGenerator<LlmStreamEvent> {
  const conversation = toGeminiConversation(request.messages, context.memory);
  const functionDeclarations = toGeminiFunctions(request.tools);
  const stream = await client.models.generateContentStream({
    model: context.model,
    contents: conversation.contents,
    config: {
      abortSignal: attempt.signal,
      automaticContinuation: false,
      ...(conversation.systemInstruction ? { systemInstruction: conversation.systemInstruction } : {}),
      ...(functionDeclarations.length ? { tools: [{ functionDeclarations }] } : {}),
    },
  });
  let sawToolCalls = false;
  let finishReason: string | undefined;
  let usage: LlmUsage | undefined;
  for await (const chunk of stream) {
    attempt.touch();
    usage = geminiUsage(chunk) ?? usage;
    for (const event of chunkEvents(chunk, context.memory)) {
      sawToolCalls ||= event.type === 'tool_call';
      yield event;
    }
    finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
  }
  yield { type: 'done', finishReason: normalizeFinishReason(finishReason, sawToolCalls), ...usageField(usage) };
}

/**
 * Google Gemini through `@google/genai`: POST /v1beta/models/{model}:streamGenerateContent?alt=sse
 * (`base_url` overrides the endpoint). Automatic stream continuation is off: our own
 * retry rules (never replay after output) apply.
 */
export function createGeminiProvider(config: LlmConfig, options: LlmProviderOptions = {}): LlmProvider {
  const runtime = buildRuntime(config, options, describeGeminiError);
  const memory = new GeminiCallMemory();
  const client = lazy(
    () =>
      new GoogleGenAI({
        apiKey: config.api_key,
        httpOptions: {
          ...(config.base_url ? { baseUrl: config.base_url } : {}),
          apiVersion: 'v1beta',
          retryOptions: { attempts: 1 },
        },
      }),
  );
  const context = { model: config.model, memory };
  return {
    name: 'gemini',
    streamChat: (request) => runProviderStream(runtime, (attempt) => streamGeminiChat(client(), context, request, attempt), request.signal),
    check: (signal) =>
      runProviderCheck(
        (probeSignal) => client().models.get({ model: config.model, config: { abortSignal: probeSignal } }),
        describeGeminiError,
        checkTimeoutOf(config, options),
        signal,
      ),
  };
}
