import type { ContentBlock, Message, SystemContentBlock, Tool, ToolUseBlock } from '@aws-sdk/client-bedrock-runtime';
import type { LlmMessage, LlmToolSpec } from '../../types.js';

/** The SDK's JSON document type. */
type DocumentType = NonNullable<ToolUseBlock['input']>;

export interface BedrockConversation {
  system: SystemContentBlock[];
  messages: Message[];
}

function toBlocks(message: Exclude<LlmMessage, { role: 'system' }>): ContentBlock[] {
  if (message.role === 'tool') {
    return [{ toolResult: { toolUseId: message.toolCallId, content: [{ text: message.content }] } }];
  }
  const text: ContentBlock[] = message.content ? [{ text: message.content }] : [];
  if (message.role === 'user') return text;
  const calls: ContentBlock[] = (message.toolCalls ?? []).map((call) => ({
    toolUse: { toolUseId: call.id, name: call.name, input: call.arguments as DocumentType },
  }));
  return [...text, ...calls];
}

/**
 * Converse messages: system text goes apart, tool results are user content
 * blocks, and consecutive messages of one role merge (Bedrock wants turns to alternate).
 */
export function toBedrockConversation(messages: LlmMessage[]): BedrockConversation {
  const system: SystemContentBlock[] = [];
  const merged: Message[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      system.push({ text: message.content });
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    const previous = merged.at(-1);
    if (previous?.role === role) previous.content = [...(previous.content ?? []), ...blocks];
    else if (blocks.length) merged.push({ role, content: blocks });
  }
  return { system, messages: merged };
}

export function toBedrockTools(tools: LlmToolSpec[]): Tool[] {
  return tools.map((tool) => ({
    toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.inputSchema as DocumentType } },
  }));
}
