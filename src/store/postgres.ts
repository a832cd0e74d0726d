import pg from 'pg';
import type { Logger } from 'pino';
import { AppError, validation } from '../errors.js';
import { postgresMigrations } from './postgres-migrations.js';
import type { SqlClient } from './sql-client.js';

export interface PostgresSettings {
  /** `database.url`; never logged, never in an error. */
  url: string;
  poolSize: number;
  /** Connect and statement timeout (ms): past it a call fails with 503 `UNAVAILABLE`, never hangs. */
  timeoutMs: number;
  logger: Logger;
}

/** SQLSTATE classes of a database that is away rather than a statement that is wrong: connection, resources, operator intervention. */
const unavailableClasses = new Set(['08', '53', '57']);

/** SQLSTATEs of a text PostgreSQL cannot store (a NUL character): the caller's input, not the database's failure. */
const unstorableText = new Set(['22021', '22P05']);

/**
 * The contract's 503 for PostgreSQL away (down, unreachable, restarting, too slow); a text value it
 * cannot store (NUL) is the caller's 400; other errors pass unchanged.
 */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof pg.DatabaseError && unstorableText.has(error.code ?? ''))
    return validation('text values may not contain NUL characters', { reason: 'unstorable_text' });
  if (error instanceof pg.DatabaseError && !unavailableClasses.has((error.code ?? '').slice(0, 2))) return error;
  return new AppError('UNAVAILABLE', 'the shared database does not answer; try again shortly', { dependency: 'database' });
}

/** `?` placeholders (the stores' SQL, shared with SQLite) as PostgreSQL's `$1, $2, …`. */
export function numberedPlaceholders(sql: string): string {
  let index = 0;
  // A '?' inside a quoted string or identifier ('a?b', "x?") is text, not a parameter; '' and "" escape their quote.
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (token) => (token === '?' ? `$${(index += 1)}` : token));
}

/** Runs statements on a pool or one checked-out client. */
class PostgresStatements implements SqlClient {
  readonly engine = 'postgres' as const;

  constructor(protected readonly target: pg.Pool | pg.PoolClient) {}

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    try {
      return (await this.target.query(numberedPlaceholders(sql), [...params])).rows as Row[];
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    try {
      return (await this.target.query(numberedPlaceholders(sql), [...params])).rowCount ?? 0;
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    return work(this);
  }
}

/**
 * The shared adapter: a `pg` pool on `database.url`. The schema is migrated on first use (and again
 * after a failed attempt), under an advisory lock so replicas starting together migrate once. While
 * PostgreSQL is away every call fails within the timeout with 503 `UNAVAILABLE`; the pool opens new
 * connections when it returns, so the replica serves again without a restart.
 */
export class PostgresClient extends PostgresStatements {
  private migrated?: Promise<void>;

  constructor(private readonly settings: PostgresSettings) {
    super(
      new pg.Pool({
        connectionString: settings.url,
        max: settings.poolSize,
        connectionTimeoutMillis: settings.timeoutMs,
        query_timeout: settings.timeoutMs,
        idleTimeoutMillis: 30_000,
        keepAlive: true,
      }),
    );
    // An idle connection that breaks (PostgreSQL restarted) must not crash the process; the pool replaces it.
    this.pool.on('error', (error) => settings.logger.warn({ code: (error as { code?: string }).code }, 'shared database connection lost'));
  }

  private get pool(): pg.Pool {
    return this.target as pg.Pool;
  }

  override async query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    await this.ready();
    return super.query<Row>(sql, params);
  }

  override async run(sql: string, params?: readonly unknown[]): Promise<number> {
    await this.ready();
    return super.run(sql, params);
  }

  override async transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    await this.ready();
    const client = await this.connect();
    const statements = new PostgresStatements(client);
    try {
      await statements.run('BEGIN');
      // The work's own errors pass unchanged (its statements already map an absent database to UNAVAILABLE).
      const result = await work(statements);
      await statements.run('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Resolves once the schema is current; a failure is retried by the next call. */
  ready(): Promise<void> {
    this.migrated ??= this.migrate().catch((error: unknown) => {
      this.migrated = undefined;
      throw asUnavailable(error);
    });
    return this.migrated;
  }

  /** A dedicated connection (LISTEN); the caller releases it. */
  async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  /**
   * A connection of its own, outside the pool, named `applicationName` in `pg_stat_activity` (LISTEN;
   * other replicas see by that name whether this process is alive). The caller ends it.
   */
  async dedicated(applicationName: string): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.settings.url,
      application_name: applicationName,
      connectionTimeoutMillis: this.settings.timeoutMs,
      keepAlive: true,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw asUnavailable(error);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(7405112025)');
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
      const applied = await client.query<{ version: number }>('SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations');
      for (let index = applied.rows[0]?.version ?? 0; index < postgresMigrations.length; index += 1) {
        await client.query(postgresMigrations[index] ?? '');
        await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [index + 1, new Date().toISOString()]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
