import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingsSnapshot } from './settings-snapshot.js';

/** Where the LLM API key set through the API is kept: a file of the data dir (one replica) or the shared store. */
export interface ApiKeyStore {
  read(): string | undefined;
  write(key: string): Promise<void>;
  remove(): Promise<void>;
}

/** The LLM API key set through the API, kept out of SQLite in a file readable by the service user only. */
export class ApiKeyFile implements ApiKeyStore {
  readonly path: string;

  constructor(dataDir: string, fileName = 'llm-api-key') {
    this.path = join(dataDir, fileName);
  }

  read(): string | undefined {
    if (!existsSync(this.path)) return undefined;
    const key = readFileSync(this.path, 'utf8').trim();
    return key || undefined;
  }

  /** Writes the key with mode 0600 (also when the file existed with another mode). */
  write(key: string): Promise<void> {
    writeFileSync(this.path, key, { mode: 0o600 });
    chmodSync(this.path, 0o600);
    return Promise.resolve();
  }

  remove(): Promise<void> {
    rmSync(this.path, { force: true });
    return Promise.resolve();
  }
}

/**
 * The key in the shared store (`database.url`), so every replica uses the key an admin set on one.
 * Whoever can read the database can read it, as with the config file's key (docs/operator-manual/ha.md).
 */
export class SharedApiKey implements ApiKeyStore {
  constructor(
    private readonly settings: SettingsSnapshot,
    private readonly key = 'llm_api_key',
  ) {}

  read(): string | undefined {
    return this.settings.get<string>(this.key) || undefined;
  }

  write(key: string): Promise<void> {
    return this.settings.set(this.key, key);
  }

  remove(): Promise<void> {
    return this.settings.set(this.key, undefined);
  }
}
