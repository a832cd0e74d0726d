import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppError } from '../../errors.js';
import type { TerminalTicket, TerminalTickets } from '../terminal-tickets.js';
import type { AppContext } from '../types.js';

/** The subprotocol a terminal client offers (with `bearer.<token>` when it authenticates that way). */
export const terminalProtocol = 'pilothouse.terminal.v1';
const bearerPrefix = 'bearer.';
/** WebSocket close code when the caller's session ended (logout, lock, revocation, expiry): 4000 + HTTP 401. */
export const sessionEndedCode = 4401;

interface PendingUpgrade {
  socket: Duplex;
  head: Buffer;
  ticket?: TerminalTicket;
}

interface Refusal {
  status: 401 | 403 | 503;
  message: string;
  reason: string;
}

const refusalLines = { 401: ['UNAUTHORIZED', 'Unauthorized'], 403: ['FORBIDDEN', 'Forbidden'], 503: ['UNAVAILABLE', 'Service Unavailable'] } as const;

function rejectUpgrade(socket: Duplex, refusal: Refusal): void {
  const [code, statusText] = refusalLines[refusal.status];
  const body = JSON.stringify({ error: refusal.message, code, details: { reason: refusal.reason } });
  socket.end(
    `HTTP/1.1 ${refusal.status} ${statusText}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Cross-site WebSocket hijacking defence: a browser always sends `Origin`; it must be the service's
 * own (its host equals the request's `Host`) or one of `server.cors_origins`. Clients that are not
 * browsers send none and are judged by their credentials alone.
 */
export function originAllowed(request: IncomingMessage, corsOrigins: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (corsOrigins.includes(origin)) return true;
  if (!URL.canParse(origin)) return false;
  const host = request.headers.host;
  return host !== undefined && new URL(origin).host === host.toLowerCase();
}

/** The one route a ticket opens: the terminal of its pod, in its namespace (container checked by the route). */
function ticketFits(url: URL, ticket: TerminalTicket): boolean {
  return url.pathname === `/api/pods/${ticket.pod}/terminal` && (url.searchParams.get('namespace') ?? 'default') === ticket.namespace;
}

/** Moves the credentials of a ticket or a `bearer.<token>` subprotocol into the Authorization header. */
async function applyCredentials(request: IncomingMessage, tickets: TerminalTickets): Promise<{ ticket?: TerminalTicket } | Refusal> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const ticketValue = url.searchParams.get('ticket');
  if (ticketValue) {
    const ticket = await tickets.take(ticketValue);
    if (!ticket) return { status: 401, message: 'terminal ticket unknown, used or expired', reason: 'invalid_ticket' };
    if (!ticketFits(url, ticket)) return { status: 403, message: 'this terminal ticket was issued for another pod or route', reason: 'ticket_mismatch' };
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
 * the deny audit apply exactly as for plain requests. A route accepts with {@link accept}.
 * The `Origin` is checked first ({@link originAllowed}); a ticket opens only its own terminal route.
 * One instance per service (built in src/app/compose.ts).
 */
export class WebSocketUpgrades {
  private readonly pending = new WeakMap<IncomingMessage, PendingUpgrade>();
  private readonly sockets = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: 1024 * 1024,
    handleProtocols: (offered) => (offered.has(terminalProtocol) ? terminalProtocol : false),
  });

  constructor(
    private readonly tickets: TerminalTickets,
    private readonly corsOrigins: readonly string[] = [],
  ) {}

  /** Sends the server's upgrade requests through `handle` (the Koa app's callback). */
  attach(server: Server, handle: (request: IncomingMessage, response: ServerResponse) => void): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!originAllowed(request, this.corsOrigins))
        return rejectUpgrade(socket, { status: 403, message: 'WebSocket from a foreign origin', reason: 'origin_not_allowed' });
      void this.route(request, socket, head, handle);
    });
  }

  private async route(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    handle: (request: IncomingMessage, response: ServerResponse) => void,
  ): Promise<void> {
    let credentials: Awaited<ReturnType<typeof applyCredentials>>;
    try {
      credentials = await applyCredentials(request, this.tickets);
    } catch {
      // The shared store is away: the ticket cannot be redeemed now.
      return rejectUpgrade(socket, {
        status: 503,
        message: 'terminal tickets cannot be checked now (the database is unavailable)',
        reason: 'store_unavailable',
      });
    }
    if ('status' in credentials) return rejectUpgrade(socket, credentials);
    this.pending.set(request, { socket, head, ticket: credentials.ticket });
    const response = new ServerResponse(request);
    response.assignSocket(socket as never);
    response.shouldKeepAlive = false;
    response.once('finish', () => socket.destroy());
    handle(request, response);
  }

  /** The ticket the upgrade carried (to check it was issued for this pod). */
  ticketOf(context: AppContext): TerminalTicket | undefined {
    return this.pending.get(context.req)?.ticket;
  }

  /** Completes the WebSocket handshake of the current request; 400 when it is not an upgrade. */
  accept(context: AppContext): Promise<WebSocket> {
    const upgrade = this.pending.get(context.req);
    if (!upgrade) throw new AppError('VALIDATION_ERROR', 'this endpoint needs a WebSocket upgrade', {});
    this.pending.delete(context.req);
    context.respond = false;
    return new Promise((resolve) =>
      this.sockets.handleUpgrade(context.req, upgrade.socket, upgrade.head, (socket) => {
        // The socket ends with the caller's session (ADR 0027): close code 4401, the reason as text.
        const release = context.state.holdStream?.((ended) => socket.close(sessionEndedCode, `${ended.message} (${ended.reason})`));
        socket.once('close', () => release?.());
        resolve(socket);
      }),
    );
  }
}
