import type { LlmToolCall } from '../llm/types.js';
import type { SafetyAnalyzer, SafetyReport } from '../tools/safety/index.js';
import type { Tool } from '../tools/types.js';

/** A tool call as the user and the audit log see it, with its safety report. */
export interface AnalyzedCall {
  /** The command line shown in `tool_request` and recorded as `details.command`. */
  command: string;
  report: SafetyReport;
}

function stringArgument(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  return typeof value === 'string' ? value : '';
}

/**
 * The server's own name of an MCP tool: the tool's `toolName` when it has one, else the registry
 * name without the `<server>__` prefix added on a name clash (agent/ does not import mcp/).
 */
function serverToolName(tool: Tool, server: string): string {
  const ownName = (tool as Partial<{ toolName: unknown }>).toolName;
  if (typeof ownName === 'string') return ownName;
  const prefix = `${server}__`;
  return tool.definition.name.startsWith(prefix) ? tool.definition.name.slice(prefix.length) : tool.definition.name;
}

function unknownToolReport(command: string): SafetyReport {
  return { command, type: 'unknown', requiresApproval: false, isDangerous: false, isInteractive: false, isReadOnly: false, blocked: false, warnings: [] };
}

/**
 * Safety analysis of one call by tool type: kubectl and bash classify their `command`,
 * read_file/write_file their `path`, MCP tools their name and arguments. A call of a tool that
 * does not exist gets a neutral report; it is refused as tool-not-found before anything runs.
 */
export function analyzeCall(safety: SafetyAnalyzer, tool: Tool | undefined, call: LlmToolCall): AnalyzedCall {
  if (!tool) {
    const command = `${call.name} ${JSON.stringify(call.arguments)}`;
    return { command, report: unknownToolReport(command) };
  }
  const { definition } = tool;
  const command = tool.commandLine(call.arguments);
  if (definition.type === 'mcp') {
    const server = definition.server ?? 'unknown';
    return { command, report: safety.analyzeMcp(server, serverToolName(tool, server), call.arguments) };
  }
  // Pilothouse's own read-only tools change nothing: classified as reads (blocked patterns still apply).
  if (definition.type === 'pilothouse') return { command, report: safety.analyzeSync('read_file', command) };
  const argumentNames: Partial<Record<string, string>> = { read_file: 'path', write_file: 'path', promql: 'query' };
  const argumentName = argumentNames[definition.type] ?? 'command';
  return { command, report: safety.analyzeSync(definition.type, stringArgument(call.arguments, argumentName)) };
}
