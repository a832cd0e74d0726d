import type { Logger } from 'pino';
import { ConfigFileStore } from '../config/file-store.js';
import type { Config } from '../config/schema.js';
import { mcpServerKind, mcpServerSchema } from '../crds/mcp-server.js';
import { CustomClient } from '../kube/custom-client.js';
import type { RestClient } from '../kube/rest-client.js';
import { ConfigFileServers } from '../mcp/catalog/config-file-servers.js';
import { ServerCatalog } from '../mcp/catalog/server-catalog.js';
import { McpClientManager } from '../mcp/client/client-manager.js';
import type { McpServers } from '../mcp/mcp-servers.js';
import type { ToolRegistry } from '../tools/types.js';

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

/** Builds the client manager and the catalog; nothing starts until startConfiguredServers (src/mcp/mcp-servers.ts). */
export function composeMcpServers(options: McpServersOptions): McpServers {
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
