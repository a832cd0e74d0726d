import type { LlmMessage, LlmProvider, LlmToolCall, LlmToolSpec, LlmUsage } from '../llm/types.js';
import type { ToolDefinition } from '../tools/types.js';

/** What one model call produced so far; filled while streaming, so a failure keeps the partial text. */
export interface ModelReply {
  text: string;
  toolCalls: LlmToolCall[];
  finishReason?: string;
  /** The call's tokens, when the provider reported them. */
  usage?: LlmUsage;
}

/** The registry's definitions as the model sees them. */
export function toolSpecs(definitions: readonly ToolDefinition[]): LlmToolSpec[] {
  return definitions.map((definition) => ({ name: definition.name, description: definition.description, inputSchema: definition.inputSchema }));
}

export interface ModelCall {
  provider: LlmProvider;
  messages: LlmMessage[];
  tools: LlmToolSpec[];
  signal: AbortSignal;
  /** Called with each text piece as it arrives (real token streaming). */
  onText(text: string): void;
}

/** Streams one model call into `reply`; throws the provider's LLM_ERROR (or the abort). */
export async function streamModelCall(call: ModelCall, reply: ModelReply): Promise<void> {
  const stream = call.provider.streamChat({ messages: call.messages, tools: call.tools, signal: call.signal });
  for await (const event of stream) {
    if (event.type === 'text') {
      reply.text += event.text;
      call.onText(event.text);
    } else if (event.type === 'tool_call') {
      reply.toolCalls.push(event.call);
    } else {
      reply.finishReason = event.finishReason;
      reply.usage = event.usage;
    }
  }
}

/**
 * Makes every tool call id unique in the session and among approvals: providers (and test
 * servers) may reuse ids across turns, but approvals and history results are keyed by id.
 */
export function uniqueCallIds(calls: readonly LlmToolCall[], taken: (id: string) => boolean, newId: () => string): LlmToolCall[] {
  const seen = new Set<string>();
  return calls.map((call) => {
    const id = call.id && !taken(call.id) && !seen.has(call.id) ? call.id : newId();
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
