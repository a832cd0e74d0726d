import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { conflict, notFound, validation } from '../../errors.js';
import type { Principal } from '../../rbac/principal.js';
import { ownsOrAdministers } from '../../rbac/ownership.js';
import type { ApprovalsStore } from '../../store/approvals-store.js';
import type { ApprovalOutcome } from '../history/history-entries.js';
import type { ApprovalRegistry, ApprovalRequest, ApprovalResult, Approvals } from './approvals.js';

const channel = 'pilothouse_approvals';

export interface SharedApprovalsOptions {
  /** A connection of its own with this application name (PostgresClient.dedicated), for LISTEN and NOTIFY. */
  connect: (applicationName: string) => Promise<pg.Client>;
  /** How often pending waits look for decisions a missed notification carried (ms). */
  pollMs?: number;
}

const applicationName = (replica: string): string => `pilothouse-${replica}`;

/**
 * Approvals across replicas (ADR 0032): the request is stored before the `tool_request` event goes out;
 * a decision on any replica is one conditional UPDATE (the first decision wins: a timeout, a cancel or
 * a second decision loses to it) and reaches the replica running the turn by NOTIFY (and a poll, for
 * notifications missed during a reconnect). Each replica keeps a LISTEN connection named after it, so
 * PostgreSQL knows whether it is alive: a decision for a replica whose connection is gone (killed,
 * crashed) is refused with CONFLICT and stored as `abandoned`, so the call never runs; the next message
 * resumes the chat from history.
 */
export class SharedApprovals implements Approvals {
  readonly replica = randomUUID();
  private listener?: pg.Client;
  private poller?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly local: ApprovalRegistry,
    private readonly store: ApprovalsStore,
    private readonly options: SharedApprovalsOptions,
  ) {}

  /** LISTEN (reconnected after failures) and the poll. */
  start(): void {
    this.poller = setInterval(() => void this.poll().catch(() => undefined), this.options.pollMs ?? 500);
    this.poller.unref();
    void this.listen();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.poller);
    void this.listener?.end().catch(() => undefined);
  }

  /**
   * Always true, so every tool call gets a fresh random id (agent-loop's uniqueCallIds): a model's ids
   * are unique only within its answer (some providers number them), and the ids waiting on other
   * replicas cannot be known here synchronously; two chats on two replicas would otherwise wait under
   * one id and the second turn would fail. The history keeps the new id, and the model reads its call
   * under it.
   */
  knows(): boolean {
    return true;
  }

  pendingIds(): string[] {
    return this.local.pendingIds();
  }

  async register(request: ApprovalRequest): Promise<void> {
    if (!(await this.store.insert({ ...request, cluster: request.cluster ?? null, replica: this.replica }))) {
      throw conflict(`tool call ${request.id} is waiting for a decision in another chat`, { id: request.id });
    }
  }

  /** The local wait, then the stored decision: whichever was stored first is the outcome. */
  async wait(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResult> {
    const result = await this.local.wait(request, signal);
    try {
      if (await this.store.claim(request.id, result.outcome, result.by ?? null)) return result;
      const stored = await this.store.find(request.id);
      if (!stored?.outcome) return result;
      // `abandoned`: refused while this replica seemed gone; nothing runs.
      const outcome = stored.outcome === 'abandoned' ? 'timeout' : (stored.outcome as ApprovalOutcome);
      return { outcome, ...(stored.decidedBy ? { by: stored.decidedBy } : {}) };
    } catch {
      // PostgreSQL away: only this replica's own result stands, and an approval is not trusted.
      return result.outcome === 'approved' ? { outcome: 'cancelled' } : result;
    }
  }

  async decide(principal: Principal, id: string, approved: boolean): Promise<ApprovalRequest> {
    const stored = await this.store.find(id);
    if (!stored || !ownsOrAdministers(principal, stored.owner)) throw notFound(`no pending tool call ${id}`, { id });
    if (stored.outcome) throw validation(`tool call ${id} was already decided`, { id });
    if (stored.replica !== this.replica && !(await this.alive(stored.replica))) {
      await this.store.claim(id, 'abandoned', principal.username);
      throw conflict('the replica running this chat stopped, so the tool call will never run; send your message again to continue the chat', {
        id,
        reason: 'replica_gone',
      });
    }
    const outcome = approved ? 'approved' : 'rejected';
    if (!(await this.store.claim(id, outcome, principal.username))) throw validation(`tool call ${id} was already decided`, { id });
    if (!this.local.resolve(id, { outcome, by: principal.username })) await this.notify(id);
    return { id, owner: stored.owner, sessionId: stored.sessionId, ...(stored.cluster === null ? {} : { cluster: stored.cluster }) };
  }

  /** Whether the replica's LISTEN connection is open, allowing it `graceMs` to reconnect (after PostgreSQL restarted). */
  private async alive(replica: string, graceMs = 3_000): Promise<boolean> {
    const deadline = Date.now() + graceMs;
    for (;;) {
      if (await this.store.connected(applicationName(replica))) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  private async notify(id: string): Promise<void> {
    // The decision is stored: a lost notification is caught by the owner's poll.
    await this.listener?.query('SELECT pg_notify($1, $2)', [channel, id]).catch(() => undefined);
  }

  /** Settles local waits whose decision is stored. */
  private async poll(): Promise<void> {
    const pending = this.local.pendingIds();
    if (pending.length === 0) return;
    for (const record of await this.store.decided(pending)) {
      if (record.outcome === 'approved' || record.outcome === 'rejected') {
        this.local.resolve(record.id, { outcome: record.outcome, ...(record.decidedBy ? { by: record.decidedBy } : {}) });
      }
    }
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    try {
      const client = await this.options.connect(applicationName(this.replica));
      this.listener = client;
      client.on('notification', (message) => {
        if (message.payload && this.local.pendingRequest(message.payload)) void this.poll().catch(() => undefined);
      });
      client.on('error', () => this.relisten(client));
      client.on('end', () => this.relisten(client));
      await client.query(`LISTEN ${channel}`);
    } catch {
      this.relisten(undefined);
    }
  }

  private relisten(client: pg.Client | undefined): void {
    if (client && this.listener !== client) return;
    this.listener = undefined;
    void client?.end().catch(() => undefined);
    if (!this.stopped) setTimeout(() => void this.listen(), 250).unref();
  }
}
