import type { LlmMessage, LlmToolCall, LlmToolSpec } from '../llm/types.js';

/** The fence language of a prompted tool call: ```tool_call {"name": ..., "arguments": {...}} ```. */
export const toolCallFence = 'tool_call';

const fencePattern = /```[ \t]*(tool_call|json)?[ \t]*\r?\n([\s\S]*?)```/g;

/**
 * The system prompt's part that describes the tools to a model without tool calling: each tool's
 * name, description and JSON Schema, and how to call one with a fenced JSON block.
 */
export function promptedToolsSection(tools: readonly LlmToolSpec[]): string {
  const described = tools.map((tool) => `- ${tool.name}: ${tool.description}\n  arguments (JSON Schema): ${JSON.stringify(tool.inputSchema)}`);
  return [
    'You call tools by writing a fenced block, and nothing after it:',
    '```tool_call',
    '{"name": "<tool name>", "arguments": {<arguments as the schema says>}}',
    '```',
    'One block per call (several blocks call several tools in order). The result comes back in the next message, starting with "Tool result".',
    'Write no block when you give your final answer. The tools:',
    ...described,
  ].join('\n');
}

/** A prompted call read from the answer, or the correction the model gets instead of a run. */
export interface PromptedCalls {
  /** Every call in order, the malformed ones included (so each gets a result in the history). */
  calls: LlmToolCall[];
  /** Corrections by call id: these calls are answered, never run. */
  corrections: Map<string, string>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type BlockReading = { name: string; arguments: Record<string, unknown> } | { problem: string; name?: string } | undefined;

function readBlock(language: string | undefined, body: string): BlockReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    // A plain ```json block that is not a call is only text; a ```tool_call block must parse.
    return language === toolCallFence ? { problem: `the block is not valid JSON (${(error as Error).message})` } : undefined;
  }
  if (!isObject(parsed) || typeof parsed.name !== 'string') {
    return language === toolCallFence ? { problem: 'the block must be a JSON object with a string "name" and an object "arguments"' } : undefined;
  }
  const args = parsed.arguments ?? {};
  if (!isObject(args)) return { problem: '"arguments" must be a JSON object', name: parsed.name };
  return { name: parsed.name, arguments: args };
}

function correctionText(problem: string, tools: readonly string[]): string {
  return `Correction: your tool call was not run: ${problem}. Tools: ${tools.join(', ')}. Write the call again as one \`\`\`${toolCallFence} block with {"name": ..., "arguments": {...}}, or answer without a block.`;
}

/**
 * The tool calls of a prompted answer: each ```tool_call block (and each ```json block shaped like a call).
 * A block that does not parse, lacks a name, or names an unknown tool becomes a correction, not a run.
 */
export function readPromptedCalls(text: string, tools: readonly string[], newId: () => string): PromptedCalls {
  const result: PromptedCalls = { calls: [], corrections: new Map() };
  for (const match of text.matchAll(fencePattern)) {
    const reading = readBlock(match[1], (match[2] ?? '').trim());
    if (!reading) continue;
    const id = newId();
    if ('problem' in reading) {
      result.calls.push({ id, name: reading.name ?? 'invalid_tool_call', arguments: { _raw: (match[2] ?? '').trim() } });
      result.corrections.set(id, correctionText(reading.problem, tools));
    } else {
      result.calls.push({ id, name: reading.name, arguments: reading.arguments });
      if (!tools.includes(reading.name)) result.corrections.set(id, correctionText(`there is no tool "${reading.name}"`, tools));
    }
  }
  return result;
}

function fenced(call: LlmToolCall): string {
  return `\`\`\`${toolCallFence}\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n\`\`\``;
}

/**
 * The conversation for a model without tool calling: assistant tool calls as their fenced blocks (kept
 * when the text holds them already), each tool result as a user message that names the call.
 */
export function toPromptedConversation(messages: readonly LlmMessage[], toolsSection: string): LlmMessage[] {
  return messages.map((message): LlmMessage => {
    if (message.role === 'system') return { role: 'system', content: `${message.content}\n\n${toolsSection}` };
    if (message.role === 'tool') return { role: 'user', content: `Tool result of ${message.name} (call ${message.toolCallId}):\n${message.content}` };
    if (message.role !== 'assistant' || !message.toolCalls?.length) return message;
    const content = message.content.includes('```') ? message.content : [message.content, ...message.toolCalls.map(fenced)].filter(Boolean).join('\n');
    return { role: 'assistant', content };
  });
}
