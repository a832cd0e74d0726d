import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppError } from '../errors.js';
import type { TerminalTicket, TerminalTickets } from './terminal-tickets.js';
import type { AppContext } from './types.js';

/** The subprotocol a terminal client offers (with `bearer.<token>` when it authenticates that way). */
export const terminalProtocol = 'pilothouse.terminal.v1';
const bearerPrefix = 'bearer.';

interface PendingUpgrade {
  socket: Duplex;
  head: Buffer;
  ticket?: TerminalTicket;
}

const pending = new WeakMap<IncomingMessage, PendingUpgrade>();
const sockets = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  perMessageDeflate: false,
  maxPayload: 1024 * 1024,
  handleProtocols: (offered) => (offered.has(terminalProtocol) ? terminalProtocol : false),
});

function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: message, code: 'UNAUTHORIZED', details: {} });
  socket.end(`HTTP/1.1 ${status} Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** Moves the credentials of a ticket or a `bearer.<token>` subprotocol into the Authorization header. */
function applyCredentials(request: IncomingMessage, tickets: TerminalTickets): { ticket?: TerminalTicket } | undefined {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const ticketValue = url.searchParams.get('ticket');
  if (ticketValue) {
    const ticket = tickets.take(ticketValue);
    if (!ticket) return undefined;
    if (ticket.authorization) request.headers.authorization = ticket.authorization;
    else delete request.headers.authorization;
    return { ticket };
  }
  const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((entry) => entry.trim());
  const bearer = offered.find((entry) => entry.startsWith(bearerPrefix));
  if (bearer && !request.headers.authorization) request.headers.authorization = `Bearer ${bearer.slice(bearerPrefix.length)}`;
  return {};
}

/**
 * Routes WebSocket upgrades through the Koa app, so authentication, the permission matrix and
 * the deny audit apply exactly as for plain requests. A route accepts with `acceptWebSocket`.
 */
export function attachWebSocketUpgrades(server: Server, handle: (request: IncomingMessage, response: ServerResponse) => void, tickets: TerminalTickets): void {
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const credentials = applyCredentials(request, tickets);
    if (!credentials) return rejectUpgrade(socket, 401, 'terminal ticket unknown, used or expired');
    pending.set(request, { socket, head, ticket: credentials.ticket });
    const response = new ServerResponse(request);
    response.assignSocket(socket as never);
    response.shouldKeepAlive = false;
    response.once('finish', () => socket.destroy());
    handle(request, response);
  });
}

/** The ticket the upgrade carried (to check it was issued for this pod). */
export function upgradeTicket(context: AppContext): TerminalTicket | undefined {
  return pending.get(context.req)?.ticket;
}

/** Completes the WebSocket handshake of the current request; 400 when it is not an upgrade. */
export function acceptWebSocket(context: AppContext): Promise<WebSocket> {
  const upgrade = pending.get(context.req);
  if (!upgrade) throw new AppError('VALIDATION_ERROR', 'this endpoint needs a WebSocket upgrade', {});
  pending.delete(context.req);
  context.respond = false;
  return new Promise((resolve) => sockets.handleUpgrade(context.req, upgrade.socket, upgrade.head, resolve));
}
