import { randomBytes } from 'node:crypto';

/** What a ticket stands for: the caller's credentials, bound to one pod. */
export interface TerminalTicket {
  /** The Authorization header of the request that asked for the ticket (absent without auth). */
  authorization?: string;
  namespace: string;
  pod: string;
  /** The container the terminal opens in (resolved when the ticket was issued). */
  container: string;
}

/**
 * Short-lived one-time tickets for the web terminal: a browser cannot set headers on a
 * WebSocket, and the long-lived JWT must never travel in a URL. A ticket is valid once,
 * for `ttlMs`, for exactly the terminal route, pod and container it was issued for; the upgrade
 * re-authenticates its credentials.
 */
export class TerminalTickets {
  private readonly tickets = new Map<string, TerminalTicket & { expiresAt: number }>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Issues a ticket; returns its value and expiry. */
  issue(ticket: TerminalTicket): { ticket: string; expiresAt: string } {
    this.sweep();
    const value = randomBytes(24).toString('base64url');
    const expiresAt = this.clock() + this.ttlMs;
    this.tickets.set(value, { ...ticket, expiresAt });
    return { ticket: value, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Consumes a ticket (one use); undefined when unknown, used or expired. */
  take(value: string): TerminalTicket | undefined {
    const entry = this.tickets.get(value);
    this.tickets.delete(value);
    if (!entry || entry.expiresAt < this.clock()) return undefined;
    return { authorization: entry.authorization, namespace: entry.namespace, pod: entry.pod, container: entry.container };
  }

  private sweep(): void {
    const now = this.clock();
    for (const [value, entry] of this.tickets) if (entry.expiresAt < now) this.tickets.delete(value);
  }
}
