import type { Db } from './database.js';

/** A chat session as stored: it belongs to one user. */
export interface ChatSessionRecord {
  id: string;
  username: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

/** One stored history entry: `kind` names the payload's shape (see agent/history-entries.ts). */
export interface ChatEntryRecord {
  id: number;
  sessionId: string;
  kind: string;
  payload: unknown;
  createdAt: string;
}

interface SessionRow {
  id: string;
  username: string;
  title: string;
  created_at: string;
  updated_at: string;
}

interface EntryRow {
  id: number;
  session_id: string;
  kind: string;
  payload: string;
  created_at: string;
}

function toSession(row: SessionRow): ChatSessionRecord {
  return { id: row.id, username: row.username, title: row.title, createdAt: row.created_at, updatedAt: row.updated_at };
}

function toEntry(row: EntryRow): ChatEntryRecord {
  return { id: row.id, sessionId: row.session_id, kind: row.kind, payload: JSON.parse(row.payload) as unknown, createdAt: row.created_at };
}

/** Chat sessions and their history entries: the only SQL for `chat_sessions` and `chat_entries`. */
export class ChatStore {
  constructor(
    private readonly database: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  createSession(id: string, username: string, title: string): ChatSessionRecord {
    const timestamp = this.now().toISOString();
    this.database
      .prepare('INSERT INTO chat_sessions (id, username, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, username, title, timestamp, timestamp);
    return { id, username, title, createdAt: timestamp, updatedAt: timestamp };
  }

  getSession(id: string): ChatSessionRecord | undefined {
    const row = this.database.prepare('SELECT * FROM chat_sessions WHERE id = ?').get(id) as SessionRow | undefined;
    return row ? toSession(row) : undefined;
  }

  /** The user's sessions, most recently updated first. */
  listSessions(username: string): ChatSessionRecord[] {
    const rows = this.database.prepare('SELECT * FROM chat_sessions WHERE username = ? ORDER BY updated_at DESC, id').all(username) as SessionRow[];
    return rows.map(toSession);
  }

  /** Appends one entry and marks the session updated; durable when this returns. */
  append(sessionId: string, kind: string, payload: unknown): ChatEntryRecord {
    const timestamp = this.now().toISOString();
    const insert = this.database.transaction(() => {
      const result = this.database
        .prepare('INSERT INTO chat_entries (session_id, kind, payload, created_at) VALUES (?, ?, ?, ?)')
        .run(sessionId, kind, JSON.stringify(payload), timestamp);
      this.database.prepare('UPDATE chat_sessions SET updated_at = ? WHERE id = ?').run(timestamp, sessionId);
      return Number(result.lastInsertRowid);
    });
    return { id: insert(), sessionId, kind, payload, createdAt: timestamp };
  }

  /** Every entry of the session in order. */
  entries(sessionId: string): ChatEntryRecord[] {
    const rows = this.database.prepare('SELECT * FROM chat_entries WHERE session_id = ? ORDER BY id').all(sessionId) as EntryRow[];
    return rows.map(toEntry);
  }

  /** Deletes the session and (by cascade) its entries; false when there was none. */
  deleteSession(id: string): boolean {
    return this.database.prepare('DELETE FROM chat_sessions WHERE id = ?').run(id).changes > 0;
  }
}
