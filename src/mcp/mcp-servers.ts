import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { CustomClient } from '../kube/custom-client.js';
import type { McpServerObject } from '../crds/mcp-server.js';
import type { CommandPolicy } from './catalog/command-policy.js';
import type { ServerCatalog } from './catalog/server-catalog.js';
import type { McpClientManager } from './client/client-manager.js';

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

/** Connects the servers of the config file (`mcp.servers`); MCPServer objects come through the reconciler. */
export async function startConfiguredServers(servers: McpServers, config: Config, logger: Logger): Promise<void> {
  for (const server of config.mcp.servers) {
    await servers.manager.apply({ ...server, source: 'config' }).catch((error: unknown) => {
      logger.warn({ server: server.name, err: String(error) }, 'mcp server from the config file not started');
    });
  }
}
