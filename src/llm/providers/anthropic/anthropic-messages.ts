import type { ContentBlockParam, MessageParam, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { LlmMessage, LlmToolSpec } from '../../types.js';

export interface AnthropicConversation {
  /** The system prompt as one text block marked for prompt caching (absent without a system message). */
  system: TextBlockParam[];
  messages: MessageParam[];
}

/** Prompt caching of the stable part: the system prompt and the tool definitions end a cached prefix. */
const cacheBreakpoint = { type: 'ephemeral' } as const;

function toBlocks(message: Exclude<LlmMessage, { role: 'system' }>): ContentBlockParam[] {
  if (message.role === 'tool') return [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }];
  const text: ContentBlockParam[] = message.content ? [{ type: 'text', text: message.content }] : [];
  if (message.role === 'user') return text;
  const calls: ContentBlockParam[] = (message.toolCalls ?? []).map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments }));
  return [...text, ...calls];
}

/**
 * Messages API conversation: the system text goes apart (one cached block), tool results are user
 * `tool_result` blocks, and consecutive messages of one role merge (turns must alternate).
 */
export function toAnthropicConversation(messages: LlmMessage[]): AnthropicConversation {
  const systemTexts: string[] = [];
  const merged: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      systemTexts.push(message.content);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    const previous = merged.at(-1);
    if (previous?.role === role) previous.content.push(...blocks);
    else if (blocks.length) merged.push({ role, content: blocks });
  }
  const system: TextBlockParam[] = systemTexts.length ? [{ type: 'text', text: systemTexts.join('\n\n'), cache_control: cacheBreakpoint }] : [];
  return { system, messages: merged };
}

/** The tools, the last one carrying the cache breakpoint (it caches every definition before it too). */
export function toAnthropicTools(tools: LlmToolSpec[]): Tool[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Tool['input_schema'],
    ...(index === tools.length - 1 ? { cache_control: cacheBreakpoint } : {}),
  }));
}
