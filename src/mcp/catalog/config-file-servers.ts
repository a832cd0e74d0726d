import type { ConfigFileStore } from '../../config/file-store.js';
import type { McpServerConfig } from '../../config/schema.js';

type RawServer = Record<string, unknown> & { name?: unknown };

/** The raw `mcp.servers` array of a config document, created when missing. */
function serversOf(document: Record<string, unknown>): RawServer[] {
  const mcp = (document.mcp ??= {}) as Record<string, unknown>;
  if (!Array.isArray(mcp.servers)) mcp.servers = [];
  return mcp.servers as RawServer[];
}

/** Persists API changes of config-file servers to `mcp.servers` of the per-user config file. */
export class ConfigFileServers {
  constructor(private readonly file: ConfigFileStore) {}

  add(server: McpServerConfig): void {
    this.file.update((document) => {
      const entry: RawServer = { name: server.name, command: server.command, args: server.args, enabled: server.enabled };
      if (server.description !== undefined) entry.description = server.description;
      if (Object.keys(server.env).length > 0) entry.env = server.env;
      serversOf(document).push(entry);
    });
  }

  setEnabled(name: string, enabled: boolean): void {
    this.file.update((document) => {
      for (const entry of serversOf(document)) if (entry.name === name) entry.enabled = enabled;
    });
  }

  remove(name: string): void {
    this.file.update((document) => {
      const servers = serversOf(document);
      const kept = servers.filter((entry) => entry.name !== name);
      servers.splice(0, servers.length, ...kept);
    });
  }
}
