import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { PinnedVersionTransport } from './pinned-version-transport.js';
import type { ServerDefinition } from './server-definition.js';
import { StderrTail } from './stderr-tail.js';

export type { McpTool };

export interface ConnectionOptions {
  /** Reported as clientInfo.version. */
  clientVersion: string;
  /** The child must answer `initialize` and `tools/list` within this time. */
  initializeTimeoutMs: number;
}

/** What a live connection reports to its owner. */
export interface ConnectionEvents {
  /** The server's tool list after `notifications/tools/list_changed`. */
  toolsChanged(tools: McpTool[]): void;
  /** The child exited or the transport broke (not called after `close()`). */
  closed(reason: string): void;
}

export interface CallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Joins an error with the child's stderr tail. */
function withTail(reason: string, tail: StderrTail): string {
  const text = tail.toString();
  return text ? `${reason}; stderr: ${text}` : reason;
}

/** Lets pending stderr chunks arrive before the tail is read. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * One child MCP server over stdio, via the SDK client: spawn with the configured env over a
 * minimal environment, handshake (`initialize` 2024-11-05, `notifications/initialized`,
 * `tools/list`), re-list on `notifications/tools/list_changed`, `tools/call` with a timeout.
 */
export class McpConnection {
  tools: McpTool[] = [];
  private closing = false;
  private ready = false;
  private relisting?: Promise<void>;
  private relistAgain = false;

  private readonly client: Client;
  private readonly transport: StdioClientTransport;
  private readonly tail: StderrTail;

  private constructor(
    parts: { client: Client; transport: StdioClientTransport; tail: StderrTail },
    private readonly options: ConnectionOptions,
    private readonly events: ConnectionEvents,
  ) {
    this.client = parts.client;
    this.transport = parts.transport;
    this.tail = parts.tail;
  }

  /** Spawns and handshakes; rejects (with the stderr tail in the message) when the child fails or times out. */
  static async open(definition: ServerDefinition, options: ConnectionOptions, events: ConnectionEvents): Promise<McpConnection> {
    const transport = new StdioClientTransport({ command: definition.command, args: definition.args, env: definition.env, stderr: 'pipe' });
    const tail = new StderrTail();
    transport.stderr?.on('data', (chunk: Buffer) => tail.append(chunk));
    const client = new Client({ name: 'pilothouse', version: options.clientVersion }, { capabilities: {} });
    const connection = new McpConnection({ client, transport, tail }, options, events);
    try {
      await connection.handshake();
      return connection;
    } catch (error) {
      connection.closing = true;
      await settle();
      await transport.close().catch(() => undefined);
      throw new Error(withTail(`connect failed: ${error instanceof Error ? error.message : String(error)}`, tail), { cause: error });
    }
  }

  /** The child's process id while it runs. */
  get pid(): number | undefined {
    return this.transport.pid ?? undefined;
  }

  stderrTail(): string {
    return this.tail.toString();
  }

  /** `tools/call`; protocol errors and timeouts reject, tool failures resolve with `isError`. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: options.timeoutMs, signal: options.signal });
    return result as CallToolResult;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client.close();
  }

  private async handshake(): Promise<void> {
    this.client.onclose = () => void this.onClosed();
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.scheduleRelist());
    const timeout = this.options.initializeTimeoutMs;
    await this.client.connect(new PinnedVersionTransport(this.transport), { timeout });
    this.tools = await this.listTools(timeout);
    this.ready = true;
  }

  private async listTools(timeout: number): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : undefined, { timeout });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /** Serializes re-lists: a notification during a re-list triggers one more afterwards. */
  private scheduleRelist(): void {
    if (this.relisting) {
      this.relistAgain = true;
      return;
    }
    this.relisting = this.relist().finally(() => {
      this.relisting = undefined;
      if (this.relistAgain) {
        this.relistAgain = false;
        this.scheduleRelist();
      }
    });
  }

  private async relist(): Promise<void> {
    try {
      this.tools = await this.listTools(this.options.initializeTimeoutMs);
      if (!this.closing) this.events.toolsChanged(this.tools);
    } catch {
      // A failing re-list keeps the last known tools; an exit is reported by onclose.
    }
  }

  private async onClosed(): Promise<void> {
    if (this.closing || !this.ready) return;
    this.closing = true;
    await settle();
    this.events.closed(withTail('server exited', this.tail));
  }
}
