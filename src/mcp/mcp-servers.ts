import type { Logger } from 'pino';
import { ConfigFileStore } from '../config/file-store.js';
import type { Config } from '../config/schema.js';
import { CustomClient } from '../kube/custom-client.js';
import { mcpServerKind, mcpServerSchema, type McpServerObject } from '../crds/mcp-server.js';
import type { RestClient } from '../kube/rest-client.js';
import type { ToolRegistry } from '../tools/types.js';
import type { CommandPolicy } from './catalog/command-policy.js';
import { ConfigFileServers } from './catalog/config-file-servers.js';
import { ServerCatalog } from './catalog/server-catalog.js';
import { McpClientManager } from './client/client-manager.js';

/** The MCP client side as the rest of the service sees it. */
export interface McpServers {
  /** Runs the external servers and routes tool calls (the agent loop's entry point). */
  manager: McpClientManager;
  /** Backs the `/api/mcp/servers` endpoints. */
  catalog: ServerCatalog;
  /** MCPServer objects in the Pilothouse namespace only (for the reconciler). */
  objects: CustomClient<McpServerObject>;
  /** What MCPServer objects may run (config `mcp.allowed_commands`, `mcp.allowed_command_dirs`). */
  commandPolicy: CommandPolicy;
}

export interface McpServersOptions {
  config: Config;
  logger: Logger;
  registry: ToolRegistry;
  /** The service's own cluster client. */
  rest: RestClient;
  namespace: string;
  version: string;
  /** The per-user config file; without it API changes of config-file servers live in memory only. */
  configPath?: string;
}

/** Builds the client manager and the catalog; nothing starts until {@link startMcpServers}. */
export function buildMcpServers(options: McpServersOptions): McpServers {
  const manager = new McpClientManager({
    registry: options.registry,
    logger: options.logger,
    clientVersion: options.version,
    readonlyTools: options.config.authorization.tool_approval.readonly_mcp_tools,
    callTimeoutMs: options.config.tools.timeout,
    outputLimit: options.config.tools.output_limit,
  });
  const objects = new CustomClient(options.rest, mcpServerKind, options.namespace, mcpServerSchema);
  const configFile = options.configPath ? new ConfigFileServers(new ConfigFileStore(options.configPath)) : undefined;
  const commandPolicy = { commands: options.config.mcp.allowed_commands, directories: options.config.mcp.allowed_command_dirs };
  return { manager, objects, commandPolicy, catalog: new ServerCatalog({ manager, objects, configFile }) };
}

/** Connects the servers of the config file (`mcp.servers`); MCPServer objects come through the reconciler. */
export async function startConfiguredServers(servers: McpServers, config: Config, logger: Logger): Promise<void> {
  for (const server of config.mcp.servers) {
    await servers.manager.apply({ ...server, source: 'config' }).catch((error: unknown) => {
      logger.warn({ server: server.name, error: String(error) }, 'mcp server from the config file not started');
    });
  }
}
