import type { Db } from './database.js';

/** Which engine holds the shared state: embedded SQLite (one replica) or PostgreSQL (several). */
export type Engine = 'sqlite' | 'postgres';

/**
 * The one seam between the stores and an engine (ADR 0032). Stores write hand-written SQL in the
 * subset both engines accept (`?` placeholders, `ON CONFLICT`, `RETURNING`, TEXT timestamps and JSON,
 * INTEGER flags) and branch on `engine` where they differ. Two adapters: {@link SqliteClient} here and
 * `PostgresClient` (src/store/postgres.ts).
 */
export interface SqlClient {
  readonly engine: Engine;
  /** The rows a statement returns. */
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws); only store calls inside. */
  transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T>;
}

/** Runs statements on one better-sqlite3 handle, synchronously underneath. */
class SqliteStatements implements SqlClient {
  readonly engine = 'sqlite' as const;

  constructor(protected readonly database: Db) {}

  query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return Promise.resolve(this.database.prepare(sql).all(...params) as Row[]);
  }

  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return Promise.resolve(this.database.prepare(sql).run(...params).changes);
  }

  transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    return work(this);
  }
}

/**
 * The embedded adapter: the data dir's SQLite. A transaction holds the handle until it ends: other
 * calls through this client wait for it, so nothing of theirs joins (or is rolled back with) the open
 * transaction. Synchronous users of the same handle (the audit log) cannot wait: keep transactions to
 * statements only (no other awaits), or do without one.
 */
export class SqliteClient extends SqliteStatements {
  private idle: Promise<void> = Promise.resolve();

  override async query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    await this.idle;
    return super.query<Row>(sql, params);
  }

  override async run(sql: string, params?: readonly unknown[]): Promise<number> {
    await this.idle;
    return super.run(sql, params);
  }

  override async transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    const previous = this.idle;
    let release = (): void => undefined;
    this.idle = new Promise((resolve) => (release = resolve));
    await previous;
    try {
      this.database.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(new SqliteStatements(this.database));
        this.database.exec('COMMIT');
        return result;
      } catch (error) {
        this.database.exec('ROLLBACK');
        throw error;
      }
    } finally {
      release();
    }
  }
}
