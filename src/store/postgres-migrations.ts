/**
 * The shared store's schema on PostgreSQL, applied in order; `schema_migrations` records which ran.
 * Append new migrations at the end; never edit one that has shipped. Columns mirror the SQLite
 * tables (src/store/migrations.ts) so one SQL text serves both: TEXT timestamps (ISO 8601) and JSON,
 * INTEGER 0/1 flags, BIGINT milliseconds. The audit table stays in each replica's SQLite (ADR 0032).
 */
export const postgresMigrations: readonly string[] = [
  // 1: users, sessions and the login throttle's windows
  `CREATE TABLE users (
     username TEXT PRIMARY KEY,
     password_hash TEXT,
     role TEXT NOT NULL CHECK (role IN ('viewer', 'user', 'admin')),
     email TEXT,
     roles TEXT NOT NULL DEFAULT '[]',
     enabled INTEGER NOT NULL DEFAULT 1,
     locked INTEGER NOT NULL DEFAULT 0,
     source TEXT NOT NULL DEFAULT 'local',
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     username TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     revoked_at TEXT,
     source TEXT,
     user_agent TEXT,
     groups TEXT NOT NULL DEFAULT '[]'
   );
   CREATE INDEX sessions_user ON sessions (username);
   CREATE TABLE rate_windows (
     key TEXT PRIMARY KEY,
     window_start BIGINT NOT NULL,
     count INTEGER NOT NULL
   );`,
  // 2: key-value settings (UI settings, LLM settings and the LLM key set through the API)
  `CREATE TABLE settings (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );`,
];
