import type { SqlClient } from './sql-client.js';

/** A drain's shared row: its progress so far, written by the replica running it. */
export interface DrainJobRecord {
  id: string;
  node: string;
  requester: string;
  /** The cluster of the node (ADR 0035); null for rows written before clusters were recorded. */
  cluster: string | null;
  events: unknown[];
  /** When the running replica last said it is alive (epoch ms). */
  heartbeatAt: number;
  finishedAt: number | null;
}

interface DrainJobRow {
  id: string;
  node: string;
  requester: string;
  cluster: string | null;
  events: string;
  heartbeat_at: number | string;
  finished_at: number | string | null;
}

const toRecord = (row: DrainJobRow): DrainJobRecord => ({
  id: row.id,
  node: row.node,
  requester: row.requester,
  cluster: row.cluster ?? null,
  events: JSON.parse(row.events) as unknown[],
  heartbeatAt: Number(row.heartbeat_at),
  finishedAt: row.finished_at === null ? null : Number(row.finished_at),
});

/** Drain jobs shared by replicas (ADR 0032): the only SQL for `drain_jobs`. A finished job is never written again. */
export class DrainJobsStore {
  constructor(private readonly database: SqlClient) {}

  async insert(job: Pick<DrainJobRecord, 'id' | 'node' | 'requester' | 'cluster' | 'heartbeatAt'>): Promise<void> {
    await this.database.run('INSERT INTO drain_jobs (id, node, requester, cluster, events, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)', [
      job.id,
      job.node,
      job.requester,
      job.cluster,
      '[]',
      job.heartbeatAt,
    ]);
  }

  async find(id: string): Promise<DrainJobRecord | undefined> {
    const [row] = await this.database.query<DrainJobRow>('SELECT * FROM drain_jobs WHERE id = ?', [id]);
    return row ? toRecord(row) : undefined;
  }

  /** The running replica's write of a job's progress (and its end); false when the job had ended already. */
  async progress(id: string, events: readonly unknown[], at: number, finished: boolean): Promise<boolean> {
    const changed = await this.database.run('UPDATE drain_jobs SET events = ?, heartbeat_at = ?, finished_at = ? WHERE id = ? AND finished_at IS NULL', [
      JSON.stringify(events),
      at,
      finished ? at : null,
      id,
    ]);
    return changed === 1;
  }

  /** The running replica is alive: its open jobs' heartbeat is `at`. */
  async heartbeat(ids: readonly string[], at: number): Promise<void> {
    if (ids.length === 0) return;
    await this.database.run(`UPDATE drain_jobs SET heartbeat_at = ? WHERE finished_at IS NULL AND id IN (${ids.map(() => '?').join(', ')})`, [at, ...ids]);
  }

  /**
   * Ends a job whose replica went silent (no heartbeat since `staleBefore`) with `events` (one
   * conditional UPDATE: a job that finished or beat meanwhile is left alone); true when this call ended it.
   */
  async abandon(id: string, events: readonly unknown[], at: number, staleBefore: number): Promise<boolean> {
    const changed = await this.database.run('UPDATE drain_jobs SET events = ?, finished_at = ? WHERE id = ? AND finished_at IS NULL AND heartbeat_at < ?', [
      JSON.stringify(events),
      at,
      id,
      staleBefore,
    ]);
    return changed === 1;
  }

  /** Deletes jobs that finished before `before`. */
  async prune(before: number): Promise<number> {
    return this.database.run('DELETE FROM drain_jobs WHERE finished_at IS NOT NULL AND finished_at < ?', [before]);
  }
}
