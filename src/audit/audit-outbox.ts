import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { SqlClient } from '../store/sql-client.js';
import { auditFilter, toEntry, type AuditLog, type AuditQuery, type AuditRow } from './audit-log.js';
import { startRetention, type RetentionSchedule } from './retention.js';
import type { AuditEntry } from './types.js';

const batchSize = 200;
const columns = 'replica, local_id, timestamp, "user", action, resource, details, decision, source, request_id, outcome, cluster';

interface SharedRow extends Omit<AuditRow, 'id'> {
  seq: number | string;
}

/**
 * PostgreSQL's text cannot hold a NUL character, which SQLite stores (a login attempt's username is
 * audited as sent). Shipped as U+FFFD: a row PostgreSQL refuses would hold back every later row of
 * its replica for good, so one unauthenticated request could hide that replica's audit from all.
 */
function storableText(value: string | null): string | null {
  return value === null ? null : value.replaceAll('\u0000', '\uFFFD');
}

/** How long shipped rows stay in PostgreSQL (`audit.retention_days`, as each replica's SQLite) and the clock it counts on. */
export interface SharedRetention {
  retentionDays: number;
  clock: () => Date;
}

/**
 * The audit outbox (ADR 0032): every row is written to this replica's SQLite first (durable before
 * the response, as with one replica), then shipped to PostgreSQL in order. A row is marked shipped
 * only after PostgreSQL committed it, and shipping is idempotent by (replica, local id), so a crash
 * between the two ships it again without a double. While PostgreSQL is away rows wait, and go when it
 * returns.
 */
export class AuditOutbox {
  private readonly replica: string;
  private timer?: NodeJS.Timeout;
  private running: Promise<void> = Promise.resolve();
  private retention?: RetentionSchedule;

  constructor(
    private readonly log: AuditLog,
    private readonly shared: SqlClient,
    private readonly logger: Logger,
    private readonly sharedRetention?: SharedRetention,
  ) {
    this.replica = log.replicaId(randomUUID);
  }

  /**
   * Ships every `intervalMs` (250 ms: rows are on every replica well within 2 s) and, with
   * `sharedRetention`, prunes PostgreSQL's rows at start and daily like each replica prunes its own.
   */
  start(intervalMs = 250): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), intervalMs);
    this.timer.unref();
    if (this.sharedRetention) this.retention = startRetention(() => this.pruneShared(), 'shared audit', this.logger);
  }

  stop(): Promise<void> {
    clearInterval(this.timer);
    this.retention?.stop();
    return this.running.catch(() => undefined);
  }

  /**
   * Deletes every replica's rows older than `audit.retention_days` from PostgreSQL (any replica may;
   * deleting twice is harmless); returns how many went. Rows still waiting in a SQLite are not touched.
   */
  async pruneShared(): Promise<number> {
    if (!this.sharedRetention) return 0;
    const { retentionDays, clock } = this.sharedRetention;
    const cutoff = new Date(clock().getTime() - retentionDays * 86_400_000).toISOString();
    return this.shared.run('DELETE FROM audit WHERE timestamp < ?', [cutoff]);
  }

  /** Ships what waits now; one flush at a time. Rejects (UNAVAILABLE) while PostgreSQL is away. */
  flush(): Promise<void> {
    const next = this.running.catch(() => undefined).then(() => this.shipAll());
    this.running = next;
    return next;
  }

  private async shipAll(): Promise<void> {
    for (let rows = this.log.unshipped(batchSize); rows.length > 0; rows = this.log.unshipped(batchSize)) {
      await this.ship(rows);
    }
  }

  private async ship(rows: AuditRow[]): Promise<void> {
    const placeholders = rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    const values = rows.flatMap((row) => [
      this.replica,
      row.id,
      ...[row.timestamp, row.user, row.action, row.resource, row.details, row.decision, row.source, row.request_id, row.outcome, row.cluster].map(storableText),
    ]);
    try {
      await this.shared.run(`INSERT INTO audit (${columns}) VALUES ${placeholders} ON CONFLICT (replica, local_id) DO NOTHING`, values);
    } catch (error) {
      this.logger.debug({ waiting: rows.length }, 'audit rows wait for the shared database');
      throw error;
    }
    this.log.markShipped(rows.map((row) => row.id));
  }
}

/** What `GET /api/audit` answers from: every replica's rows with the shared store, else this one's. */
export class AuditView {
  constructor(
    private readonly log: AuditLog,
    private readonly shared?: { outbox: AuditOutbox; store: SqlClient },
  ) {}

  /**
   * Newest first. With PostgreSQL: this replica's waiting rows are shipped first, then every
   * replica's rows are read from PostgreSQL; while it is away, this replica's own rows answer.
   */
  async query(query: AuditQuery): Promise<{ items: AuditEntry[]; total: number }> {
    if (!this.shared) return this.log.query(query);
    try {
      await this.shared.outbox.flush();
      return await this.sharedQuery(this.shared.store, query);
    } catch {
      return this.log.query(query);
    }
  }

  private async sharedQuery(store: SqlClient, query: AuditQuery): Promise<{ items: AuditEntry[]; total: number }> {
    const { where, parameters } = auditFilter(query);
    const [count] = await store.query<{ count: number | string }>(`SELECT COUNT(*) AS count FROM audit ${where}`, parameters);
    const rows = await store.query<SharedRow>(`SELECT * FROM audit ${where} ORDER BY timestamp DESC, seq DESC LIMIT ? OFFSET ?`, [
      ...parameters,
      query.limit,
      query.offset,
    ]);
    return { items: rows.map((row) => toEntry({ ...row, id: Number(row.seq) })), total: Number(count?.count ?? 0) };
  }
}
