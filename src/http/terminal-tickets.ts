import { randomBytes } from 'node:crypto';
import type { SealedTokensStore } from '../store/sealed-tokens-store.js';

/** What a ticket stands for: the caller's credentials, bound to one pod of one cluster. */
export interface TerminalTicket {
  /** The Authorization header of the request that asked for the ticket (absent without auth). */
  authorization?: string;
  /** The cluster of the pod (ADR 0035): the terminal opens there only. */
  cluster: string;
  namespace: string;
  pod: string;
  /** The container the terminal opens in (resolved when the ticket was issued). */
  container: string;
}

/**
 * Short-lived one-time tickets for the web terminal: a browser cannot set headers on a
 * WebSocket, and the long-lived JWT must never travel in a URL. A ticket is valid once,
 * for `ttlMs`, for exactly the terminal route, cluster, pod and container it was issued for; the upgrade
 * re-authenticates its credentials. Tickets live in the shared store (sealed by their value, ADR
 * 0032), so one issued by a replica opens the terminal on any other, once.
 */
export class TerminalTickets {
  constructor(
    private readonly store: SealedTokensStore,
    private readonly ttlMs = 30_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Issues a ticket; returns its value and expiry. */
  async issue(ticket: TerminalTicket): Promise<{ ticket: string; expiresAt: string }> {
    const now = this.clock();
    await this.store.prune(now);
    const value = randomBytes(24).toString('base64url');
    const expiresAt = now + this.ttlMs;
    await this.store.put(
      'terminal',
      value,
      { authorization: ticket.authorization, cluster: ticket.cluster, namespace: ticket.namespace, pod: ticket.pod, container: ticket.container },
      expiresAt,
    );
    return { ticket: value, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Consumes a ticket (one use, on any replica); undefined when unknown, used or expired. */
  take(value: string): Promise<TerminalTicket | undefined> {
    return this.store.take<TerminalTicket>('terminal', value, this.clock());
  }
}
