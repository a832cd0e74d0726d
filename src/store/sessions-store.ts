import type { SqlClient } from './sql-client.js';

/** One login session; every token carries its id (`sid`), so revoking it ends them all. */
export interface SessionRecord {
  id: string;
  username: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  source: string | null;
  userAgent: string | null;
  /** Groups of an SSO sign-in (prefixed), kept for impersonation as the user; empty otherwise. */
  groups: string[];
}

interface SessionRow {
  id: string;
  username: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  source: string | null;
  user_agent: string | null;
  groups: string;
}

function toRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    username: row.username,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    source: row.source,
    userAgent: row.user_agent,
    groups: JSON.parse(row.groups) as string[],
  };
}

/** Login sessions: the only SQL for the sessions table (SQLite or PostgreSQL through {@link SqlClient}). */
export class SessionsStore {
  constructor(private readonly database: SqlClient) {}

  async insert(session: Omit<SessionRecord, 'revokedAt' | 'groups'> & { groups?: readonly string[] }): Promise<void> {
    await this.database.run(
      'INSERT INTO sessions (id, username, created_at, expires_at, revoked_at, source, user_agent, groups) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)',
      [session.id, session.username, session.createdAt, session.expiresAt, session.source, session.userAgent, JSON.stringify(session.groups ?? [])],
    );
  }

  async find(id: string): Promise<SessionRecord | undefined> {
    const [row] = await this.database.query<SessionRow>('SELECT * FROM sessions WHERE id = ?', [id]);
    return row ? toRecord(row) : undefined;
  }

  /** A user's sessions, newest first. */
  async listFor(username: string): Promise<SessionRecord[]> {
    return (await this.database.query<SessionRow>('SELECT * FROM sessions WHERE username = ? ORDER BY created_at DESC, id', [username])).map(toRecord);
  }

  async extend(id: string, expiresAt: string): Promise<void> {
    await this.database.run('UPDATE sessions SET expires_at = ? WHERE id = ? AND revoked_at IS NULL', [expiresAt, id]);
  }

  /** Revokes one session; returns false when it was unknown or already revoked. */
  async revoke(id: string, at: string): Promise<boolean> {
    return (await this.database.run('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id])) === 1;
  }

  /** Revokes every open session of a user at once; returns how many. */
  async revokeAllFor(username: string, at: string): Promise<number> {
    return this.database.run('UPDATE sessions SET revoked_at = ? WHERE username = ? AND revoked_at IS NULL', [at, username]);
  }

  /** Deletes sessions that ended before `before` (expired or revoked); keeps the table small. */
  async pruneEndedBefore(before: string): Promise<number> {
    return this.database.run('DELETE FROM sessions WHERE expires_at < ? OR (revoked_at IS NOT NULL AND revoked_at < ?)', [before, before]);
  }
}
