import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrations } from './migrations.js';

export type Db = Database.Database;

/** Opens (creating if needed) the SQLite store in `dataDirectory`, in WAL mode, migrated to the latest schema. */
export function openDatabase(dataDirectory: string, fileName = 'pilothouse.db'): Db {
  mkdirSync(dataDirectory, { recursive: true, mode: 0o700 });
  const database = new Database(join(dataDirectory, fileName));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  migrate(database);
  return database;
}

/** Applies every migration newer than PRAGMA user_version, each in its own transaction. */
export function migrate(database: Db): void {
  const current = database.pragma('user_version', { simple: true }) as number;
  for (let index = current; index < migrations.length; index += 1) {
    const statement = migrations[index] ?? '';
    database.transaction(() => {
      database.exec(statement);
      database.pragma(`user_version = ${index + 1}`);
    })();
  }
}
