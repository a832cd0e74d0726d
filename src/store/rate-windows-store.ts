import type { SqlClient } from './sql-client.js';

/** One key's fixed window: when it started (ms since the epoch) and how many hits it holds. */
export interface StoredWindow {
  start: number;
  count: number;
}

interface WindowRow {
  window_start: number | string;
  count: number | string;
}

const toWindow = (row: WindowRow): StoredWindow => ({ start: Number(row.window_start), count: Number(row.count) });

/**
 * Fixed windows per key in the store (the login throttle): on PostgreSQL every replica counts into
 * the same row. The only SQL for the rate_windows table.
 */
export class RateWindowsStore {
  private lastPrune = 0;

  constructor(private readonly database: SqlClient) {}

  /** Counts one hit atomically (one statement): a window older than `windowMs` starts again at `now`. */
  async hit(key: string, now: number, windowMs: number): Promise<StoredWindow> {
    await this.pruneOccasionally(now, windowMs);
    const [row] = await this.database.query<WindowRow>(
      `INSERT INTO rate_windows (key, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN rate_windows.window_start + ? <= excluded.window_start THEN 1 ELSE rate_windows.count + 1 END,
         window_start = CASE WHEN rate_windows.window_start + ? <= excluded.window_start THEN excluded.window_start ELSE rate_windows.window_start END
       RETURNING window_start, count`,
      [key, now, windowMs, windowMs],
    );
    return row ? toWindow(row) : { start: now, count: 1 };
  }

  /** The key's window as stored (undefined when none). */
  async find(key: string): Promise<StoredWindow | undefined> {
    const [row] = await this.database.query<WindowRow>('SELECT window_start, count FROM rate_windows WHERE key = ?', [key]);
    return row ? toWindow(row) : undefined;
  }

  async reset(key: string): Promise<void> {
    await this.database.run('DELETE FROM rate_windows WHERE key = ?', [key]);
  }

  /** Drops finished windows once per window length so the table stays small. */
  private async pruneOccasionally(now: number, windowMs: number): Promise<void> {
    if (now - this.lastPrune < windowMs) return;
    this.lastPrune = now;
    await this.database.run('DELETE FROM rate_windows WHERE window_start < ?', [now - windowMs]);
  }
}
