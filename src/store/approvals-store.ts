import type { SqlClient } from './sql-client.js';

/** A stored approval request and, once decided, its outcome. */
export interface ApprovalRecord {
  id: string;
  owner: string;
  sessionId: string;
  /** The cluster the tool call goes to (ADR 0035); null for tools that reach no cluster and rows stored before. */
  cluster: string | null;
  /** The replica running the turn (it waits for the decision). */
  replica: string;
  outcome: string | null;
  decidedBy: string | null;
}

interface ApprovalRow {
  id: string;
  owner: string;
  session_id: string;
  cluster: string | null;
  replica: string;
  outcome: string | null;
  decided_by: string | null;
}

const toRecord = (row: ApprovalRow): ApprovalRecord => ({
  id: row.id,
  owner: row.owner,
  sessionId: row.session_id,
  cluster: row.cluster ?? null,
  replica: row.replica,
  outcome: row.outcome,
  decidedBy: row.decided_by,
});

/** Tool-call approvals shared by replicas: the only SQL for `approvals`. */
export class ApprovalsStore {
  constructor(
    private readonly database: SqlClient,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores a request; an id decided before (a model reusing a call id in another chat) is replaced.
   * False when the id is waiting for a decision elsewhere.
   */
  async insert(request: Pick<ApprovalRecord, 'id' | 'owner' | 'sessionId' | 'cluster' | 'replica'>): Promise<boolean> {
    const changed = await this.database.run(
      `INSERT INTO approvals (id, owner, session_id, cluster, replica, requested_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, session_id = excluded.session_id, cluster = excluded.cluster, replica = excluded.replica,
         requested_at = excluded.requested_at, outcome = NULL, decided_by = NULL, decided_at = NULL
       WHERE approvals.outcome IS NOT NULL`,
      [request.id, request.owner, request.sessionId, request.cluster, request.replica, new Date(this.now()).toISOString()],
    );
    return changed === 1;
  }

  async find(id: string): Promise<ApprovalRecord | undefined> {
    const [row] = await this.database.query<ApprovalRow>('SELECT * FROM approvals WHERE id = ?', [id]);
    return row ? toRecord(row) : undefined;
  }

  /** Stores the decision unless one is stored already (one conditional UPDATE: the first decision wins); true when this one won. */
  async claim(id: string, outcome: string, by: string | null): Promise<boolean> {
    const changed = await this.database.run('UPDATE approvals SET outcome = ?, decided_by = ?, decided_at = ? WHERE id = ? AND outcome IS NULL', [
      outcome,
      by,
      new Date(this.now()).toISOString(),
      id,
    ]);
    return changed === 1;
  }

  /** The decided ones among `ids`. */
  async decided(ids: readonly string[]): Promise<ApprovalRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.database.query<ApprovalRow>(`SELECT * FROM approvals WHERE outcome IS NOT NULL AND id IN (${ids.map(() => '?').join(', ')})`, ids);
    return rows.map(toRecord);
  }

  /**
   * Whether a connection named `applicationName` is open (PostgreSQL's own view of its sessions): a
   * replica's LISTEN connection closes with its process, also when it is killed.
   */
  async connected(applicationName: string): Promise<boolean> {
    const [row] = await this.database.query<{ count: number | string }>('SELECT COUNT(*) AS count FROM pg_stat_activity WHERE application_name = ?', [
      applicationName,
    ]);
    return Number(row?.count ?? 0) > 0;
  }
}
