import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from 'pino';
import type { Flags } from '../cli/flags.js';
import type { Config } from '../config/schema.js';
import { startHttpMcp } from '../mcp/server/http-transport.js';
import { createPilothouseMcpServer } from '../mcp/server/pilothouse-server.js';
import { buildHttpAccess, buildServerModeDeps, stdioPrincipal } from '../app/compose-mcp.js';

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

/**
 * `pilothouse --mcp`: the MCP server mode. stdio (default): stdout carries only protocol messages,
 * logs go to stderr; ends when stdin closes. `--mcp-transport http`: Streamable HTTP on --port at /mcp.
 */
export async function runMcp(flags: Flags, config: Config, logger: Logger): Promise<number> {
  const options = { config, dataDir: flags.dataDir, kubeconfigPath: flags.kubeconfig, context: flags.context, logger };
  const mode = buildServerModeDeps(options);
  const { deps } = mode;
  try {
    if (flags.mcpTransport === 'http') {
      // Loopback unless --host names another address; each call runs, and is audited, as its caller.
      const access = await buildHttpAccess(options, mode);
      const listen = { host: flags.host ?? '127.0.0.1', port: flags.port ?? config.server.port };
      const running = await startHttpMcp((caller) => createPilothouseMcpServer({ ...deps, caller }), access, listen, logger);
      logger.info({ url: running.url }, 'mcp server listening');
      process.stderr.write(`Pilothouse MCP server (Streamable HTTP) on ${running.url}\n`);
      await untilSignal();
      await running.close();
      return 0;
    }
    // stdio: the local account that started the process is the caller (compose-mcp.ts stdioPrincipal).
    const server = createPilothouseMcpServer({ ...deps, caller: stdioPrincipal(config) });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
      process.stdin.once('end', resolve);
    });
    await server.connect(transport);
    logger.info({ writes: config.mcp_server.allow_writes, bash: config.mcp_server.bash }, 'mcp server on stdio');
    await Promise.race([closed, untilSignal()]);
    await server.close();
    return 0;
  } finally {
    // Everything server mode opened: the shared store and OIDC (HTTP), every cluster scope built, the audit store.
    await mode.close();
  }
}
