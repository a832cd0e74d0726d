import { Ollama, type ChatResponse } from 'ollama';
import { messageOf, type ProviderFailure } from '../../errors.js';
import { normalizeFinishReason } from '../../finish-reason.js';
import { toOllamaMessages, toOllamaTools } from './ollama-messages.js';
import { runProviderCheck } from '../../provider-check.js';
import { runProviderStream, type AttemptContext } from '../../provider-stream.js';
import { buildRuntime, checkTimeoutOf } from '../../runtime.js';
import { newToolCallId, toArgumentsObject } from '../../tool-calls.js';
import type { LlmChatRequest, LlmConfig, LlmProvider, LlmProviderOptions, LlmStreamEvent, LlmUsage } from '../../types.js';
import { usageField, usageOf } from '../../usage.js';

/** Reads the `ollama` package's ResponseError (not exported, so by shape). */
export function describeOllamaError(error: unknown): ProviderFailure {
  const status = (error as { status_code?: unknown } | null)?.status_code;
  if (typeof status === 'number') return { message: messageOf(error), status };
  return { message: messageOf(error) };
}

/** A client whose every request also obeys `signal` (the SDK takes no per-call signal). */
function clientFor(config: LlmConfig, signal: AbortSignal): Ollama {
  const headers = config.api_key ? { Authorization: `Bearer ${config.api_key}` } : undefined;
  const boundFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
  return new Ollama({ host: config.base_url, fetch: boundFetch, headers });
}

function toolCallEvents(chunk: ChatResponse): LlmStreamEvent[] {
  return (chunk.message.tool_calls ?? []).map((call) => {
    const id = (call as { id?: unknown }).id;
    return {
      type: 'tool_call',
      call: {
        id: typeof id === 'string' && id ? id : newToolCallId(),
        name: call.function.name,
        arguments: toArgumentsObject(call.function.arguments),
      },
    };
  });
}

async function* streamOllamaChat(config: LlmConfig, request: LlmChatRequest, attempt: AttemptContext): AsyncGenerator<LlmStreamEvent> {
  const tools = toOllamaTools(request.tools);
  const stream = await clientFor(config, attempt.signal).chat({
    model: config.model,
    stream: true,
    messages: toOllamaMessages(request.messages),
    ...(tools.length ? { tools } : {}),
  });
  let sawToolCalls = false;
  let finishReason: string | undefined;
  let usage: LlmUsage | undefined;
  for await (const chunk of stream) {
    attempt.touch();
    if (chunk.done && (chunk.prompt_eval_count !== undefined || chunk.eval_count !== undefined)) usage = usageOf(chunk.prompt_eval_count, chunk.eval_count);
    if (chunk.message.content) yield { type: 'text', text: chunk.message.content };
    for (const event of toolCallEvents(chunk)) {
      sawToolCalls = true;
      yield event;
    }
    if (chunk.done) finishReason = chunk.done_reason;
  }
  yield { type: 'done', finishReason: normalizeFinishReason(finishReason, sawToolCalls), ...usageField(usage) };
}

/** POST /api/show: 'native' when the model's capabilities list `tools`, 'none' when they do not, 'unknown' when it cannot say. */
async function ollamaToolSupport(config: LlmConfig, timeoutMs: number, signal?: AbortSignal): Promise<'native' | 'none' | 'unknown'> {
  const limit = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]);
  try {
    const shown = await clientFor(config, limit).show({ model: config.model });
    if (!Array.isArray(shown.capabilities)) return 'unknown';
    return shown.capabilities.includes('tools') ? 'native' : 'none';
  } catch {
    return 'unknown';
  }
}

/**
 * Ollama (`base_url` is the host, default http://127.0.0.1:11434) through the `ollama`
 * package: POST /api/chat, NDJSON. `api_key`, when set, is sent as a Bearer token.
 */
export function createOllamaProvider(config: LlmConfig, options: LlmProviderOptions = {}): LlmProvider {
  const runtime = buildRuntime(config, options, describeOllamaError);
  return {
    name: 'ollama',
    streamChat: (request) => runProviderStream(runtime, (attempt) => streamOllamaChat(config, request, attempt), request.signal),
    check: (signal) =>
      runProviderCheck((probeSignal) => clientFor(config, probeSignal).version(), describeOllamaError, checkTimeoutOf(config, options), signal),
    toolSupport: (signal) => ollamaToolSupport(config, checkTimeoutOf(config, options), signal),
  };
}
