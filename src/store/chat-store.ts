import type { SqlClient } from './sql-client.js';

/** A chat session as stored: it belongs to one user. */
export interface ChatSessionRecord {
  id: string;
  username: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

/** One stored history entry: `kind` names the payload's shape (see agent/history/history-entries.ts). */
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
  id: number | string;
  session_id: string;
  kind: string;
  payload: string;
  created_at: string;
}

function toSession(row: SessionRow): ChatSessionRecord {
  return { id: row.id, username: row.username, title: row.title, createdAt: row.created_at, updatedAt: row.updated_at };
}

function toEntry(row: EntryRow): ChatEntryRecord {
  return { id: Number(row.id), sessionId: row.session_id, kind: row.kind, payload: JSON.parse(row.payload) as unknown, createdAt: row.created_at };
}

/** Chat sessions and their history entries: the only SQL for `chat_sessions` and `chat_entries` (SQLite or PostgreSQL). */
export class ChatStore {
  constructor(
    private readonly database: SqlClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async createSession(id: string, username: string, title: string): Promise<ChatSessionRecord> {
    const timestamp = this.now().toISOString();
    await this.database.run('INSERT INTO chat_sessions (id, username, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [
      id,
      username,
      title,
      timestamp,
      timestamp,
    ]);
    return { id, username, title, createdAt: timestamp, updatedAt: timestamp };
  }

  async getSession(id: string): Promise<ChatSessionRecord | undefined> {
    const [row] = await this.database.query<SessionRow>('SELECT * FROM chat_sessions WHERE id = ?', [id]);
    return row ? toSession(row) : undefined;
  }

  /** The user's sessions, most recently updated first. */
  async listSessions(username: string): Promise<ChatSessionRecord[]> {
    return (await this.database.query<SessionRow>('SELECT * FROM chat_sessions WHERE username = ? ORDER BY updated_at DESC, id', [username])).map(toSession);
  }

  /**
   * Marks the session updated, then appends one entry; durable when this resolves. Two statements
   * rather than a transaction: an entry of a deleted session fails on its foreign key, and the SQLite
   * handle is shared with the audit log's synchronous writes, which must never join (or be rolled back
   * with) a transaction held open across awaits.
   */
  async append(sessionId: string, kind: string, payload: unknown): Promise<ChatEntryRecord> {
    const timestamp = this.now().toISOString();
    await this.database.run('UPDATE chat_sessions SET updated_at = ? WHERE id = ?', [timestamp, sessionId]);
    const [row] = await this.database.query<{ id: number | string }>(
      'INSERT INTO chat_entries (session_id, kind, payload, created_at) VALUES (?, ?, ?, ?) RETURNING id',
      [sessionId, kind, JSON.stringify(payload), timestamp],
    );
    return { id: Number(row?.id), sessionId, kind, payload, createdAt: timestamp };
  }

  /** Every entry of the session in order. */
  async entries(sessionId: string): Promise<ChatEntryRecord[]> {
    return (await this.database.query<EntryRow>('SELECT * FROM chat_entries WHERE session_id = ? ORDER BY id', [sessionId])).map(toEntry);
  }

  /** Deletes the session and (by cascade) its entries; false when there was none. */
  async deleteSession(id: string): Promise<boolean> {
    return (await this.database.run('DELETE FROM chat_sessions WHERE id = ?', [id])) > 0;
  }
}
