import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { Db } from './database.js';
import { PostgresClient } from './postgres.js';
import { SqliteClient, type SqlClient } from './sql-client.js';

/** The store of the state replicas share (ADR 0032): a {@link SqlClient} the service closes at shutdown. */
export interface SharedStore extends SqlClient {
  close(): Promise<void>;
}

/**
 * PostgreSQL when `database.url` is set (several replicas), else the data dir's SQLite (one replica).
 * Audit stays in the local SQLite either way. Nothing connects here: the first call does.
 */
export function openSharedStore(config: Config, local: Db, logger: Logger): SharedStore {
  const { url, pool_size: poolSize, timeout } = config.database;
  if (url) return new PostgresClient({ url, poolSize, timeoutMs: timeout, logger });
  const client: SqlClient = new SqliteClient(local);
  return Object.assign(client, { close: () => Promise.resolve() });
}
