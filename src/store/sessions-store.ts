import type { Db } from './database.js';

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

/** Login sessions: the only SQL for the sessions table. */
export class SessionsStore {
  constructor(private readonly database: Db) {}

  insert(session: Omit<SessionRecord, 'revokedAt' | 'groups'> & { groups?: readonly string[] }): void {
    this.database
      .prepare('INSERT INTO sessions (id, username, created_at, expires_at, revoked_at, source, user_agent, groups) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)')
      .run(session.id, session.username, session.createdAt, session.expiresAt, session.source, session.userAgent, JSON.stringify(session.groups ?? []));
  }

  find(id: string): SessionRecord | undefined {
    const row = this.database.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** A user's sessions, newest first. */
  listFor(username: string): SessionRecord[] {
    const rows = this.database.prepare('SELECT * FROM sessions WHERE username = ? ORDER BY created_at DESC, id').all(username) as SessionRow[];
    return rows.map(toRecord);
  }

  extend(id: string, expiresAt: string): void {
    this.database.prepare('UPDATE sessions SET expires_at = ? WHERE id = ? AND revoked_at IS NULL').run(expiresAt, id);
  }

  /** Revokes one session; returns false when it was unknown or already revoked. */
  revoke(id: string, at: string): boolean {
    return this.database.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id).changes === 1;
  }

  /** Revokes every open session of a user at once; returns how many. */
  revokeAllFor(username: string, at: string): number {
    return this.database.prepare('UPDATE sessions SET revoked_at = ? WHERE username = ? AND revoked_at IS NULL').run(at, username).changes;
  }

  /** Deletes sessions that ended before `before` (expired or revoked); keeps the table small. */
  pruneEndedBefore(before: string): number {
    return this.database.prepare('DELETE FROM sessions WHERE expires_at < ? OR (revoked_at IS NOT NULL AND revoked_at < ?)').run(before, before).changes;
  }
}
