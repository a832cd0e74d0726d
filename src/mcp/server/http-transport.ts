import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from 'pino';
import { listenHttp } from '../../net/listen.js';
import type { Principal } from '../../rbac/principal.js';
import { checkHttpAccess, type HttpAccessPolicy } from './http-access.js';

/** The path of the Streamable HTTP endpoint. */
export const mcpHttpPath = '/mcp';

export interface RunningHttpMcp {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Builds the MCP server for one request of `caller` (the bearer token's user, or `token:<name>` for a static token). */
export type McpServerFactory = (caller: Principal) => McpServer;

interface HttpMcpContext {
  createMcpServer: McpServerFactory;
  access: HttpAccessPolicy;
  logger: Logger;
  port: () => number;
}

function refuse(response: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** One request: access check, then a fresh stateless server + transport (the SDK's stateless Streamable HTTP pattern). */
async function handle(context: HttpMcpContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { logger } = context;
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname !== mcpHttpPath) return refuse(response, 404, { error: `not found; the MCP endpoint is ${mcpHttpPath}`, code: 'NOT_FOUND' });
  const decision = await checkHttpAccess(request, response, context.access, context.port());
  if (!decision.allowed) {
    const code = decision.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN';
    logger.warn({ reason: decision.reason, status: decision.status }, 'mcp http request refused');
    return refuse(
      response,
      decision.status,
      { error: decision.message, code, details: { reason: decision.reason } },
      decision.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {},
    );
  }
  const mcpServer = context.createMcpServer(decision.caller);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => {
    void transport.close();
    void mcpServer.close();
  });
  try {
    await mcpServer.connect(transport);
    await transport.handleRequest(request, response);
  } catch (error) {
    logger.error({ err: error instanceof Error ? error.message : String(error) }, 'mcp http request failed');
    if (!response.headersSent) response.writeHead(500).end();
  }
}

/**
 * `--mcp --mcp-transport http`: Streamable HTTP on host:port at `/mcp` (stateless). Every request
 * needs a bearer token and a `Host` (and `Origin`, when sent) naming this server (http-access.ts), and
 * runs as the token's principal.
 */
export async function startHttpMcp(
  createMcpServer: McpServerFactory,
  access: HttpAccessPolicy,
  listen: { host: string; port: number },
  logger: Logger,
): Promise<RunningHttpMcp> {
  const { host, port } = listen;
  const context: HttpMcpContext = { createMcpServer, access, logger, port: () => (server.address() as AddressInfo).port };
  const server = createServer((request, response) => void handle(context, request, response));
  const { url, close } = await listenHttp(server, port, host);
  return { server, url: `${url}${mcpHttpPath}`, close };
}
