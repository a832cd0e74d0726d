import type { OpenAI } from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { normalizeFinishReason } from '../../finish-reason.js';
import type { AttemptContext } from '../../provider-stream.js';
import { parseToolArguments } from '../../tool-calls.js';
import { usageField, usageOf } from '../../usage.js';
import type { LlmChatRequest, LlmMessage, LlmStreamEvent, LlmToolSpec, LlmUsage } from '../../types.js';

/** Shared by the OpenAI and Azure adapters: same SDK, same wire format. */

function toOpenAiMessage(message: LlmMessage): ChatCompletionMessageParam {
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  if (message.role !== 'assistant' || !message.toolCalls?.length) return { role: message.role, content: message.content };
  return {
    role: 'assistant',
    content: message.content || null,
    tool_calls: message.toolCalls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    })),
  };
}

export function toOpenAiMessages(messages: LlmMessage[]): ChatCompletionMessageParam[] {
  return messages.map(toOpenAiMessage);
}

export function toOpenAiTools(tools: LlmToolSpec[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

interface PartialToolCall {
  id: string;
  name: string;
  argumentsText: string;
}

type ToolCallDelta = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

/** Accumulates streamed tool-call fragments by index. */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, PartialToolCall>();

  add(delta: ToolCallDelta): void {
    const current = this.calls.get(delta.index) ?? { id: '', name: '', argumentsText: '' };
    if (delta.id) current.id = delta.id;
    if (delta.function?.name) current.name += delta.function.name;
    if (delta.function?.arguments) current.argumentsText += delta.function.arguments;
    this.calls.set(delta.index, current);
  }

  /** The completed calls, in index order; empties the accumulator. */
  drain(): LlmStreamEvent[] {
    const ordered = [...this.calls.entries()].sort(([left], [right]) => left - right);
    this.calls.clear();
    return ordered.map(([, call]) => ({
      type: 'tool_call',
      call: { id: call.id, name: call.name, arguments: parseToolArguments(call.argumentsText) },
    }));
  }
}

/** Streams one chat completion and converts its chunks into LlmStreamEvents. */
export async function* streamOpenAiChat(client: OpenAI, model: string, request: LlmChatRequest, attempt: AttemptContext): AsyncGenerator<LlmStreamEvent> {
  const tools = toOpenAiTools(request.tools);
  const stream = await client.chat.completions.create(
    {
      model,
      stream: true,
      // The last chunk then carries the call's usage (OpenAI-compatible servers that ignore it send none).
      stream_options: { include_usage: true },
      messages: toOpenAiMessages(request.messages),
      ...(tools.length ? { tools } : {}),
    },
    { signal: attempt.signal },
  );
  const accumulator = new ToolCallAccumulator();
  let finishReason: string | null = null;
  let usage: LlmUsage | undefined;
  for await (const chunk of stream) {
    attempt.touch();
    if (chunk.usage) usage = usageOf(chunk.usage.prompt_tokens, chunk.usage.completion_tokens, chunk.usage.prompt_tokens_details?.cached_tokens);
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.delta.content) yield { type: 'text', text: choice.delta.content };
    for (const delta of choice.delta.tool_calls ?? []) accumulator.add(delta);
    finishReason = choice.finish_reason ?? finishReason;
  }
  const calls = accumulator.drain();
  yield* calls;
  yield { type: 'done', finishReason: normalizeFinishReason(finishReason, calls.length > 0), ...usageField(usage) };
}
