import type { Logger } from 'pino';
import type { ToolRegistry } from '../../tools/types.js';
import type { McpTool } from './connection.js';
import { isListedReadOnly, McpRegistryTool, type McpToolRunner } from './registry-tool.js';

/** Separator of the clash prefix: `<server>__<tool>`. */
export const prefixSeparator = '__';

/**
 * Keeps the registry in step with each server's tool list. A tool keeps its own name unless a
 * built-in or another server's tool already has it; then it is registered as `<server>__<tool>`.
 */
export class ToolBindings {
  private readonly byServer = new Map<string, McpRegistryTool[]>();
  private readonly readonlyTools: ReadonlySet<string>;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly runner: McpToolRunner,
    readonlyTools: readonly string[],
    private readonly logger: Logger,
  ) {
    this.readonlyTools = new Set(readonlyTools);
  }

  /** Replaces the server's tools in the registry (an empty list withdraws them all). */
  sync(server: string, tools: McpTool[]): void {
    for (const bound of this.byServer.get(server) ?? []) this.registry.unregister(bound.definition.name);
    const bound = tools.flatMap((tool) => this.bind(server, tool));
    if (bound.length > 0) this.byServer.set(server, bound);
    else this.byServer.delete(server);
  }

  /** Registry names of the server's tools. */
  names(server: string): string[] {
    return (this.byServer.get(server) ?? []).map((tool) => tool.definition.name);
  }

  /** The bound tool behind a registry name. */
  find(registryName: string): McpRegistryTool | undefined {
    for (const tools of this.byServer.values()) {
      const found = tools.find((tool) => tool.definition.name === registryName);
      if (found) return found;
    }
    return undefined;
  }

  private bind(server: string, tool: McpTool): McpRegistryTool[] {
    const name = [tool.name, `${server}${prefixSeparator}${tool.name}`].find((candidate) => !this.registry.get(candidate));
    if (!name) {
      this.logger.warn({ server, tool: tool.name }, 'mcp tool name taken even with the server prefix; tool skipped');
      return [];
    }
    const readOnly = isListedReadOnly(this.readonlyTools, server, tool.name);
    const registryTool = new McpRegistryTool({ server, tool, registryName: name, readOnly }, this.runner);
    this.registry.register(registryTool);
    return [registryTool];
  }
}
