import { redactSecrets, scrubText } from '../redact.js';
import type { Db } from '../store/database.js';
import type { AuditAction, AuditDecision, AuditEntry, AuditInput, AuditRecorder } from './types.js';

export interface AuditQuery {
  limit: number;
  offset: number;
  action?: AuditAction;
  user?: string;
  /** ISO 8601 UTC lower bound (inclusive). */
  from?: string;
  /** ISO 8601 UTC upper bound (inclusive). */
  to?: string;
  /** Only rows about this cluster. */
  cluster?: string;
}

/** An audit row as stored (the outbox ships these to PostgreSQL as they are). */
export interface AuditRow {
  id: number;
  timestamp: string;
  user: string;
  action: AuditAction;
  resource: string;
  details: string;
  decision: AuditDecision;
  source: string | null;
  request_id: string | null;
  outcome: string | null;
  cluster: string | null;
}

/** A stored row as the API answers it. */
export function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    timestamp: row.timestamp,
    user: row.user,
    action: row.action,
    resource: row.resource,
    details: JSON.parse(row.details) as Record<string, unknown>,
    decision: row.decision,
    source: row.source,
    requestId: row.request_id,
    outcome: row.outcome,
    ...(row.cluster === null || row.cluster === undefined ? {} : { cluster: row.cluster }),
  };
}

/**
 * The WHERE clause of an audit query and its parameters, one text for both engines (`"user"` is a
 * plain identifier in SQLite and a quoted one in PostgreSQL).
 */
export function auditFilter(query: AuditQuery): { where: string; parameters: unknown[] } {
  const clauses: string[] = [];
  const parameters: unknown[] = [];
  const add = (clause: string, value: unknown): void => {
    clauses.push(clause);
    parameters.push(value);
  };
  if (query.action) add('action = ?', query.action);
  if (query.user) add('"user" = ?', query.user);
  if (query.from) add('timestamp >= ?', query.from);
  if (query.to) add('timestamp <= ?', query.to);
  if (query.cluster) add('cluster = ?', query.cluster);
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', parameters };
}

/**
 * The audit log: the only SQL for the audit table. Writes are synchronous, so durable on return.
 * Details and outcome are redacted by what the values are (src/redact.ts) before they are stored;
 * `knownSecrets` names the secrets the service holds (the configured LLM key), redacted wherever
 * they appear.
 */
export class AuditLog implements AuditRecorder {
  constructor(
    private readonly database: Db,
    private readonly clock: () => Date = () => new Date(),
    private readonly knownSecrets: () => readonly (string | undefined)[] = () => [],
  ) {}

  record(input: AuditInput): AuditEntry {
    const timestamp = this.clock().toISOString();
    const secrets = this.knownSecrets().filter((secret): secret is string => Boolean(secret));
    const details = redactSecrets(input.details ?? {}, secrets);
    const outcome = input.outcome === undefined ? null : scrubText(input.outcome, secrets);
    const result = this.database
      .prepare(
        `INSERT INTO audit (timestamp, user, action, resource, details, decision, source, request_id, outcome, cluster)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        timestamp,
        input.user,
        input.action,
        input.resource,
        JSON.stringify(details),
        input.decision,
        input.source ?? null,
        input.requestId ?? null,
        outcome,
        input.cluster ?? null,
      );
    return {
      id: Number(result.lastInsertRowid),
      timestamp,
      user: input.user,
      action: input.action,
      resource: input.resource,
      details,
      decision: input.decision,
      source: input.source ?? null,
      requestId: input.requestId ?? null,
      outcome,
      ...(input.cluster === undefined ? {} : { cluster: input.cluster }),
    };
  }

  /** Newest first, filters combined with AND. */
  query(query: AuditQuery): { items: AuditEntry[]; total: number } {
    const { where, parameters } = auditFilter(query);
    const total = (this.database.prepare(`SELECT COUNT(*) AS count FROM audit ${where}`).get(...parameters) as { count: number }).count;
    const rows = this.database
      .prepare(`SELECT * FROM audit ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...parameters, query.limit, query.offset) as AuditRow[];
    return { items: rows.map(toEntry), total };
  }

  /** The oldest rows not yet shipped to the shared store, in order (the outbox, src/audit/audit-outbox.ts). */
  unshipped(limit: number): AuditRow[] {
    return this.database.prepare('SELECT * FROM audit WHERE shipped = 0 ORDER BY id LIMIT ?').all(limit) as AuditRow[];
  }

  /** Marks rows shipped once the shared store committed them. */
  markShipped(ids: readonly number[]): void {
    const mark = this.database.prepare('UPDATE audit SET shipped = 1 WHERE id = ?');
    this.database.transaction(() => ids.forEach((id) => mark.run(id)))();
  }

  /** This data dir's replica id (created once): shipped rows are keyed by it and their local id. */
  replicaId(create: () => string): string {
    const row = this.database.prepare("SELECT value FROM outbox_state WHERE key = 'replica'").get() as { value: string } | undefined;
    if (row) return row.value;
    const id = create();
    this.database.prepare("INSERT INTO outbox_state (key, value) VALUES ('replica', ?)").run(id);
    return id;
  }

  /** Deletes entries older than `retentionDays`; returns how many were removed. */
  prune(retentionDays: number): number {
    const cutoff = new Date(this.clock().getTime() - retentionDays * 86_400_000).toISOString();
    return this.database.prepare('DELETE FROM audit WHERE timestamp < ?').run(cutoff).changes;
  }
}
