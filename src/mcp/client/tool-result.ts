import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../tools/types.js';

/** Cuts text to `limit` characters, saying so. */
export function capOutput(text: string, limit: number): { output: string; truncated: boolean } {
  if (text.length <= limit) return { output: text, truncated: false };
  return { output: `${text.slice(0, limit)}\n[output truncated at ${limit} characters]`, truncated: true };
}

/** The text the model reads from a `tools/call` result: text parts joined, other parts named. */
export function contentText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((part) => (part.type === 'text' ? part.text : `[${part.type} content omitted]`));
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

/** A `tools/call` result as a registry tool result. */
export function toToolResult(result: CallToolResult, limit: number): ToolResult {
  const { output, truncated } = capOutput(contentText(result), limit);
  return { output, isError: result.isError === true, truncated };
}

/** A protocol error (JSON-RPC error, timeout, closed connection) as a failed result the model can read. */
export function errorResult(server: string, tool: string, error: unknown): ToolResult {
  const message = error instanceof Error ? error.message : String(error);
  return { output: `MCP server "${server}" failed to run tool "${tool}": ${message}`, isError: true };
}
