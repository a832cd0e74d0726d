import type { Message, Tool } from 'ollama';
import type { LlmMessage, LlmToolSpec } from '../../types.js';

function toOllamaMessage(message: LlmMessage): Message {
  if (message.role === 'tool') return { role: 'tool', content: message.content, tool_name: message.name };
  if (message.role !== 'assistant' || !message.toolCalls?.length) return { role: message.role, content: message.content };
  return {
    role: 'assistant',
    content: message.content,
    tool_calls: message.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments } })),
  };
}

/** Ollama /api/chat messages; tool results carry the tool's name (Ollama has no call ids). */
export function toOllamaMessages(messages: LlmMessage[]): Message[] {
  return messages.map(toOllamaMessage);
}

export function toOllamaTools(tools: LlmToolSpec[]): Tool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema as NonNullable<Tool['function']['parameters']>,
    },
  }));
}
