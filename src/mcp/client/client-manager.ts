import type { Logger } from 'pino';
import type { ToolRegistry, ToolResult } from '../../tools/types.js';
import type { McpConnection } from './connection.js';
import type { McpRegistryTool } from './registry-tool.js';
import { NameClashError, ToolNotFoundError } from './errors.js';
import { sameLaunch, type ServerDefinition, type ServerView } from './server-definition.js';
import { ServerSupervisor, type SupervisorOptions } from './supervisor.js';
import { ToolBindings } from './tool-bindings.js';
import { errorResult, toToolResult } from './tool-result.js';

export interface McpClientManagerOptions {
  /** Where the servers' tools are registered (shared with the built-in tools). */
  registry: ToolRegistry;
  logger: Logger;
  /** Reported as clientInfo.version (the package version). */
  clientVersion: string;
  /** `authorization.tool_approval.readonly_mcp_tools`: `tool` or `server/tool`. */
  readonlyTools?: readonly string[];
  /** Default 10 s. */
  initializeTimeoutMs?: number;
  /** Per `tools/call`; default 60 s. */
  callTimeoutMs?: number;
  /** Output cap in characters; default 64 KiB. */
  outputLimit?: number;
  /** First restart delay (default 1 s), doubling up to `restartMaxDelayMs` (default 60 s). */
  restartDelayMs?: number;
  restartMaxDelayMs?: number;
}

/** A call's per-call options. */
export interface McpCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * The MCP client side: one supervised child per enabled server definition (from the config file
 * or MCPServer objects), their tools kept in the tool registry as type `mcp`, calls routed to the
 * server that advertised the tool. Safety analysis, approval and audit are the caller's job.
 */
export class McpClientManager {
  private readonly supervisors = new Map<string, ServerSupervisor>();
  private readonly bindings: ToolBindings;
  private readonly listeners = new Set<(name: string) => void>();
  private readonly supervisorOptions: SupervisorOptions;

  constructor(private readonly options: McpClientManagerOptions) {
    this.bindings = new ToolBindings(options.registry, this, options.readonlyTools ?? [], options.logger);
    this.supervisorOptions = {
      clientVersion: options.clientVersion,
      initializeTimeoutMs: options.initializeTimeoutMs ?? 10_000,
      restartDelayMs: options.restartDelayMs ?? 1_000,
      restartMaxDelayMs: options.restartMaxDelayMs ?? 60_000,
      stableAfterMs: 30_000,
    };
  }

  /**
   * Adds or updates a server: a new or changed command/args/env (re)starts the child, `enabled:
   * false` stops it. Throws NameClashError when the name belongs to the other source.
   */
  async apply(definition: ServerDefinition): Promise<void> {
    const existing = this.supervisors.get(definition.name);
    if (existing && existing.definition.source !== definition.source) throw new NameClashError(definition.name, existing.definition.source);
    if (existing && sameLaunch(existing.definition, definition) && existing.definition.enabled === definition.enabled) {
      Object.assign(existing.definition, { description: definition.description });
      return;
    }
    const supervisor = new ServerSupervisor({ ...definition }, this.supervisorOptions, this.events(), this.options.logger);
    this.supervisors.set(definition.name, supervisor);
    await existing?.stop();
    supervisor.start();
  }

  /** Stops and forgets a server (only when it comes from `source`, if given). False when unknown. */
  async remove(name: string, source?: ServerDefinition['source']): Promise<boolean> {
    const supervisor = this.supervisors.get(name);
    if (!supervisor || (source && supervisor.definition.source !== source)) return false;
    this.supervisors.delete(name);
    await supervisor.stop();
    this.notify(name);
    return true;
  }

  /** A server's definition and live status. */
  get(name: string): ServerView | undefined {
    const supervisor = this.supervisors.get(name);
    if (!supervisor) return undefined;
    return { definition: { ...supervisor.definition }, status: { ...supervisor.status, tools: this.bindings.names(name) } };
  }

  list(): ServerView[] {
    return [...this.supervisors.keys()].sort().flatMap((name) => this.get(name) ?? []);
  }

  /** Called with a server name whenever its status or tools change; returns an unsubscribe function. */
  onStatusChange(listener: (name: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The server and server-side tool name behind a registry name. */
  resolve(registryName: string): { server: string; tool: string } | undefined {
    const bound = this.bindings.find(registryName);
    return bound ? { server: bound.server, tool: bound.toolName } : undefined;
  }

  /**
   * Runs a tool by registry name (`tools/call` with the per-call timeout). Tool failures and
   * protocol errors (e.g. -32602) come back as `isError` results; throws ToolNotFoundError when no
   * connected server advertises the tool.
   */
  async call(registryName: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<ToolResult> {
    const { bound, connection } = this.advertised(registryName);
    try {
      const timeoutMs = options.timeoutMs ?? this.options.callTimeoutMs ?? 60_000;
      const result = await connection.callTool(bound.toolName, args, { timeoutMs, signal: options.signal });
      return toToolResult(result, this.options.outputLimit ?? 64 * 1024);
    } catch (error) {
      return errorResult(bound.server, bound.toolName, error);
    }
  }

  /** The bound tool and its live connection; ToolNotFoundError unless a connected server advertises it. */
  private advertised(registryName: string): { bound: McpRegistryTool; connection: McpConnection } {
    const bound = this.bindings.find(registryName);
    const connection = bound ? this.supervisors.get(bound.server)?.connection : undefined;
    if (!bound || !connection?.tools.some((tool) => tool.name === bound.toolName)) throw new ToolNotFoundError(registryName);
    return { bound, connection };
  }

  /** Stops every child. */
  async close(): Promise<void> {
    const supervisors = [...this.supervisors.values()];
    this.supervisors.clear();
    await Promise.all(supervisors.map((supervisor) => supervisor.stop()));
  }

  private events(): ConstructorParameters<typeof ServerSupervisor>[2] {
    return {
      toolsChanged: (server, tools) => {
        this.bindings.sync(server, tools);
        this.notify(server);
      },
      statusChanged: (server) => this.notify(server),
    };
  }

  private notify(name: string): void {
    for (const listener of this.listeners) listener(name);
  }
}
