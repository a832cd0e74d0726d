import type { Content, FunctionDeclaration, Part } from '@google/genai';
import type { GeminiCallMemory } from './gemini-call-memory.js';
import type { LlmMessage, LlmToolCall, LlmToolSpec } from '../../types.js';

export interface GeminiConversation {
  systemInstruction?: string;
  contents: Content[];
}

function functionCallPart(call: LlmToolCall, memory: GeminiCallMemory): Part {
  const trace = memory.recall(call.id);
  const functionCall = { name: call.name, args: call.arguments, ...(trace.providerId ? { id: trace.providerId } : {}) };
  return { functionCall, ...(trace.thoughtSignature ? { thoughtSignature: trace.thoughtSignature } : {}) };
}

function toContent(message: Exclude<LlmMessage, { role: 'system' }>, memory: GeminiCallMemory): Content {
  if (message.role === 'user') return { role: 'user', parts: [{ text: message.content }] };
  if (message.role === 'tool') {
    const providerId = memory.recall(message.toolCallId).providerId;
    const functionResponse = { name: message.name, response: { output: message.content }, ...(providerId ? { id: providerId } : {}) };
    return { role: 'user', parts: [{ functionResponse }] };
  }
  const textParts: Part[] = message.content ? [{ text: message.content }] : [];
  const callParts = (message.toolCalls ?? []).map((call) => functionCallPart(call, memory));
  return { role: 'model', parts: [...textParts, ...callParts] };
}

function isFunctionResponse(content: Content | undefined): boolean {
  const parts = content?.parts ?? [];
  return content?.role === 'user' && parts.length > 0 && parts.every((part) => part.functionResponse);
}

/** Appends a turn; consecutive function responses share one user turn. */
function appendContent(contents: Content[], content: Content): void {
  const previous = contents.at(-1);
  if (isFunctionResponse(content) && isFunctionResponse(previous) && previous) {
    previous.parts = [...(previous.parts ?? []), ...(content.parts ?? [])];
  } else if (content.parts?.length) contents.push(content);
}

/**
 * Gemini `contents`: system messages become the system instruction, assistant
 * tool calls `functionCall` parts, and consecutive tool results one user turn
 * of `functionResponse` parts.
 */
export function toGeminiConversation(messages: LlmMessage[], memory: GeminiCallMemory): GeminiConversation {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const contents: Content[] = [];
  for (const message of messages) {
    if (message.role !== 'system') appendContent(contents, toContent(message, memory));
  }
  return { contents, ...(system.length ? { systemInstruction: system.join('\n\n') } : {}) };
}

export function toGeminiFunctions(tools: LlmToolSpec[]): FunctionDeclaration[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.inputSchema }));
}
