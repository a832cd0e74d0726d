import type { SqlClient } from './sql-client.js';

/** One stored setting: its JSON value. */
export interface SettingRecord {
  key: string;
  value: unknown;
}

/** Key-value JSON settings (UI settings, LLM settings, the LLM key when shared). The only SQL for the settings table. */
export class SettingsStore {
  constructor(
    private readonly database: SqlClient,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const [row] = await this.database.query<{ value: string }>('SELECT value FROM settings WHERE key = ?', [key]);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  /** Every setting (the settings snapshot reloads them; a few rows per user). */
  async all(): Promise<SettingRecord[]> {
    const rows = await this.database.query<{ key: string; value: string }>('SELECT key, value FROM settings ORDER BY key');
    return rows.map((row) => ({ key: row.key, value: JSON.parse(row.value) as unknown }));
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.database.run(
      `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [key, JSON.stringify(value), this.now()],
    );
  }

  async delete(key: string): Promise<void> {
    await this.database.run('DELETE FROM settings WHERE key = ?', [key]);
  }
}
