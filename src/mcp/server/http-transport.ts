import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from 'pino';

/** The path of the Streamable HTTP endpoint. */
export const mcpHttpPath = '/mcp';

export interface RunningHttpMcp {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** One request: a fresh stateless server + transport (the SDK's stateless Streamable HTTP pattern). */
async function handle(createMcpServer: () => McpServer, request: IncomingMessage, response: ServerResponse, logger: Logger): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname !== mcpHttpPath) {
    response.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: `not found; the MCP endpoint is ${mcpHttpPath}`, code: 'NOT_FOUND' }));
    return;
  }
  const mcpServer = createMcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => {
    void transport.close();
    void mcpServer.close();
  });
  try {
    await mcpServer.connect(transport);
    await transport.handleRequest(request, response);
  } catch (error) {
    logger.error({ error: error instanceof Error ? error.message : String(error) }, 'mcp http request failed');
    if (!response.headersSent) response.writeHead(500).end();
  }
}

/** `--mcp --mcp-transport http`: Streamable HTTP on host:port at `/mcp` (stateless). */
export async function startHttpMcp(createMcpServer: () => McpServer, host: string, port: number, logger: Logger): Promise<RunningHttpMcp> {
  const server = createServer((request, response) => void handle(createMcpServer, request, response, logger));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${shownHost}:${address.port}${mcpHttpPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
