import type { Logger } from 'pino';
import type { ConnectionOptions, McpConnection, McpTool } from './connection.js';
import type { ServerDefinition, ServerStatus } from './server-definition.js';

export interface SupervisorOptions extends ConnectionOptions {
  /** First restart delay after a failure; doubles per consecutive failure. */
  restartDelayMs: number;
  /** Cap of the restart delay. */
  restartMaxDelayMs: number;
  /** A connection that stayed up this long resets the backoff. */
  stableAfterMs: number;
}

/** What a supervisor reports to the manager. */
export interface SupervisorEvents {
  /** The server's current tools; empty while it is down. */
  toolsChanged(server: string, tools: McpTool[]): void;
  statusChanged(server: string): void;
}

/**
 * Keeps one server's child running while its definition is enabled: connects, and after an exit
 * or a failed handshake marks it failed (stderr tail in the message), withdraws its tools and
 * starts it again after an exponential, capped backoff.
 */
export class ServerSupervisor {
  /** A disabled server reads `disabled` from the start (it replaces a running one before that one has stopped). */
  status: Omit<ServerStatus, 'tools'>;
  connection?: McpConnection;
  private generation = 0;
  private failures = 0;
  private connectedAt = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly definition: ServerDefinition,
    private readonly options: SupervisorOptions,
    private readonly events: SupervisorEvents,
    private readonly logger: Logger,
  ) {
    this.status = { phase: definition.enabled ? 'connecting' : 'disabled', restarts: 0 };
  }

  get name(): string {
    return this.definition.name;
  }

  start(): void {
    if (!this.definition.enabled) return this.setStatus({ phase: 'disabled', message: undefined });
    void this.connect(this.generation);
  }

  /** Stops the child and any pending restart; the supervisor is not used again. */
  async stop(): Promise<void> {
    this.generation += 1;
    clearTimeout(this.timer);
    const connection = this.connection;
    this.connection = undefined;
    if (connection) this.events.toolsChanged(this.name, []);
    await connection?.close().catch(() => undefined);
  }

  private async connect(generation: number): Promise<void> {
    this.setStatus({ phase: 'connecting' });
    try {
      // The MCP SDK (and ajv, zod-to-json-schema with it) is loaded with the first server, not at start.
      // A server stopped (disabled, removed) while it loaded is not started at all.
      const { McpConnection } = await import('./connection.js');
      if (generation !== this.generation) return;
      const connection = await McpConnection.open(this.definition, this.options, {
        toolsChanged: (tools) => this.onToolsChanged(generation, tools),
        closed: (reason) => this.onFailure(generation, reason),
      });
      if (generation !== this.generation) return void (await connection.close());
      this.connection = connection;
      this.connectedAt = Date.now();
      this.events.toolsChanged(this.name, connection.tools);
      this.setStatus({ phase: 'connected', message: undefined, lastConnected: new Date().toISOString() });
      this.logger.info({ server: this.name, tools: connection.tools.length }, 'mcp server connected');
    } catch (error) {
      this.onFailure(generation, error instanceof Error ? error.message : String(error));
    }
  }

  private onToolsChanged(generation: number, tools: McpTool[]): void {
    if (generation === this.generation && this.connection) this.events.toolsChanged(this.name, tools);
  }

  private onFailure(generation: number, reason: string): void {
    if (generation !== this.generation) return;
    if (this.connection) {
      this.connection = undefined;
      this.events.toolsChanged(this.name, []);
    }
    if (this.connectedAt > 0 && Date.now() - this.connectedAt >= this.options.stableAfterMs) this.failures = 0;
    this.connectedAt = 0;
    this.failures += 1;
    const delay = Math.min(this.options.restartMaxDelayMs, this.options.restartDelayMs * 2 ** (this.failures - 1));
    this.setStatus({ phase: 'failed', message: `${reason} (restarting in ${Math.round(delay / 100) / 10}s)` });
    this.logger.warn({ server: this.name, reason, retryInMs: delay }, 'mcp server failed');
    this.timer = setTimeout(() => {
      if (generation !== this.generation) return;
      this.status.restarts += 1;
      void this.connect(generation);
    }, delay);
    this.timer.unref();
  }

  private setStatus(change: Partial<ServerSupervisor['status']>): void {
    this.status = { ...this.status, ...change };
    this.events.statusChanged(this.name);
  }
}
