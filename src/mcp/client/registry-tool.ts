import type { McpTool } from './connection.js';
import type { JsonObjectSchema, Tool, ToolContext, ToolDefinition, ToolResult } from '../../tools/types.js';

/** Runs a registry name's MCP tool (the client manager). */
export interface McpToolRunner {
  call(registryName: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}

/** The command line the safety analysis and the audit log see for an MCP call. */
export function mcpCommandLine(server: string, tool: string, args: Record<string, unknown>): string {
  return `mcp ${server} ${tool} ${JSON.stringify(args)}`;
}

/** Whether `tool` of `server` is listed read-only (`tool` or `server/tool`). */
export function isListedReadOnly(readonlyTools: ReadonlySet<string>, server: string, tool: string): boolean {
  return readonlyTools.has(tool) || readonlyTools.has(`${server}/${tool}`);
}

/**
 * An external server's tool as a registry tool of type `mcp`. Read-only only when configured so
 * (`authorization.tool_approval.readonly_mcp_tools`): a server's own annotations are hints from
 * code we do not control; destructive unless read-only or the server says `destructiveHint: false`.
 */
export class McpRegistryTool implements Tool {
  readonly definition: ToolDefinition;

  readonly server: string;
  readonly tool: McpTool;

  constructor(
    binding: { server: string; tool: McpTool; registryName: string; readOnly: boolean },
    private readonly runner: McpToolRunner,
  ) {
    const { server, tool, readOnly } = binding;
    this.server = server;
    this.tool = tool;
    this.definition = {
      name: binding.registryName,
      description: tool.description ?? `Tool "${tool.name}" of MCP server "${server}"`,
      inputSchema: tool.inputSchema as JsonObjectSchema,
      type: 'mcp',
      readOnly,
      destructive: !readOnly && tool.annotations?.destructiveHint !== false,
      server,
    };
  }

  /** The tool's name on its server (the registry name may carry a `<server>__` prefix). */
  get toolName(): string {
    return this.tool.name;
  }

  commandLine(args: Record<string, unknown>): string {
    return mcpCommandLine(this.server, this.tool.name, args);
  }

  async run(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
    try {
      return await this.runner.call(this.definition.name, args, { signal: context.signal });
    } catch (error) {
      return { output: error instanceof Error ? error.message : String(error), isError: true };
    }
  }
}
