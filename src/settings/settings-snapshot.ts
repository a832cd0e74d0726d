import type { Logger } from 'pino';
import type { SettingsStore } from '../store/settings-store.js';

export interface SettingsSnapshotOptions {
  /** How often other replicas' changes are read (PostgreSQL); undefined: never (one replica on SQLite). */
  pollMs?: number;
  logger: Logger;
}

/**
 * The settings table held in memory, so the many synchronous readers (the LLM provider of each turn,
 * user settings of each chat) never wait for the store. Writes go to the store first, then here.
 * With PostgreSQL it reloads every `pollMs` (500 ms), so a change made on one replica is in use on
 * every replica within a second; while PostgreSQL is away the last snapshot stays in use.
 */
export class SettingsSnapshot {
  private values = new Map<string, unknown>();
  private timer?: NodeJS.Timeout;
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly store: SettingsStore,
    private readonly options: SettingsSnapshotOptions,
  ) {}

  /** Loads the settings (the service waits for this before it serves) and starts polling. */
  async start(): Promise<void> {
    await this.reload();
    if (this.options.pollMs === undefined) return;
    this.timer = setInterval(
      () => void this.reload().catch(() => this.options.logger.debug('settings reload failed; keeping the last ones')),
      this.options.pollMs,
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  /** Stores the value (undefined deletes it), then uses it here at once. */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) await this.store.delete(key);
    else await this.store.set(key, value);
    const next = new Map(this.values);
    if (value === undefined) next.delete(key);
    else next.set(key, value);
    this.replace(next);
  }

  /** Calls `listener` after every change of the snapshot (here or read from another replica). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private async reload(): Promise<void> {
    const records = await this.store.all();
    const next = new Map(records.map((record) => [record.key, record.value]));
    if (JSON.stringify([...next]) !== JSON.stringify([...this.values])) this.replace(next);
  }

  private replace(next: Map<string, unknown>): void {
    this.values = next;
    for (const listener of this.listeners) listener();
  }
}
