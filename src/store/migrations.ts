/**
 * Schema migrations, applied in order; PRAGMA user_version records how many ran.
 * Append new migrations at the end; never edit one that has shipped.
 */
export const migrations: readonly string[] = [
  // 1: audit log
  `CREATE TABLE audit (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     timestamp TEXT NOT NULL,
     user TEXT NOT NULL,
     action TEXT NOT NULL,
     resource TEXT NOT NULL,
     details TEXT NOT NULL DEFAULT '{}',
     decision TEXT NOT NULL CHECK (decision IN ('allow', 'deny')),
     source TEXT,
     request_id TEXT,
     outcome TEXT
   );
   CREATE INDEX audit_timestamp ON audit (timestamp);
   CREATE INDEX audit_user ON audit (user, timestamp);
   CREATE INDEX audit_action ON audit (action, timestamp);`,
  // 2: users and sessions
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
     user_agent TEXT
   );
   CREATE INDEX sessions_user ON sessions (username);`,
  // 3: chat history
  `CREATE TABLE chat_sessions (
     id TEXT PRIMARY KEY,
     username TEXT NOT NULL,
     title TEXT NOT NULL DEFAULT '',
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX chat_sessions_user ON chat_sessions (username, updated_at);
   CREATE TABLE chat_entries (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     session_id TEXT NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
     kind TEXT NOT NULL,
     payload TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX chat_entries_session ON chat_entries (session_id, id);`,
  // 4: key-value settings (UI settings, LLM settings)
  `CREATE TABLE settings (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );`,
  // 5: the groups an SSO sign-in brought (JSON array), for impersonation as the user
  `ALTER TABLE sessions ADD COLUMN groups TEXT NOT NULL DEFAULT '[]';`,
  // 6: the login throttle's windows (the same table on PostgreSQL, where replicas share it)
  `CREATE TABLE rate_windows (
     key TEXT PRIMARY KEY,
     window_start INTEGER NOT NULL,
     count INTEGER NOT NULL
   );`,
  // 7: the audit outbox (database.url): rows shipped to PostgreSQL, and this data dir's replica id
  `ALTER TABLE audit ADD COLUMN shipped INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX audit_unshipped ON audit (id) WHERE shipped = 0;
   CREATE TABLE outbox_state (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL
   );`,
  // 8: short-lived one-time values redeemable on any replica (terminal tickets, OIDC sign-ins in progress):
  // stored under a hash of the value, the payload sealed with a key derived from it (src/store/sealed-tokens-store.ts)
  `CREATE TABLE sealed_tokens (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     payload TEXT NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX sealed_tokens_expiry ON sealed_tokens (kind, expires_at);`,
  // 9: drain jobs: progress written by the replica running the drain, read by any (src/store/drain-jobs-store.ts)
  `CREATE TABLE drain_jobs (
     id TEXT PRIMARY KEY,
     node TEXT NOT NULL,
     requester TEXT NOT NULL,
     events TEXT NOT NULL DEFAULT '[]',
     heartbeat_at INTEGER NOT NULL,
     finished_at INTEGER
   );`,
  // 10: Helm chart repositories added through the API; each replica's helm home follows this list (src/helm/shared-repositories.ts)
  `CREATE TABLE helm_repositories (
     name TEXT PRIMARY KEY,
     url TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );`,
  // 11: the cluster an audit row is about (ADR 0035; NULL for actions that touch no cluster), filtered by GET /api/audit?cluster=
  `ALTER TABLE audit ADD COLUMN cluster TEXT;
   CREATE INDEX audit_cluster ON audit (cluster, timestamp);`,
  // 12: the cluster of a drain's node (ADR 0035; NULL for drains recorded before: the home cluster's)
  `ALTER TABLE drain_jobs ADD COLUMN cluster TEXT;`,
  // 13: tokens and cost of each model call (src/store/usage-store.ts): GET /api/usage and the daily budgets
  `CREATE TABLE llm_usage (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at TEXT NOT NULL,
     day TEXT NOT NULL,
     username TEXT NOT NULL,
     cluster TEXT,
     provider TEXT NOT NULL,
     model TEXT NOT NULL,
     source TEXT NOT NULL,
     session_id TEXT,
     input_tokens INTEGER NOT NULL,
     output_tokens INTEGER NOT NULL,
     cached_input_tokens INTEGER NOT NULL,
     cost REAL NOT NULL
   );
   CREATE INDEX llm_usage_day ON llm_usage (day, source, username);`,
];
