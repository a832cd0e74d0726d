import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The LLM API key set through the API, kept out of SQLite in a file readable by the service user only. */
export class ApiKeyFile {
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
  write(key: string): void {
    writeFileSync(this.path, key, { mode: 0o600 });
    chmodSync(this.path, 0o600);
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }
}
