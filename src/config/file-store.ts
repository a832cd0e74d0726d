import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as yaml from 'js-yaml';
import { readRawConfig } from './load.js';

/**
 * Read-modify-write access to the per-user config file. The file is created on
 * first save (mode 0600, written atomically). `${VAR}` references are kept as written.
 */
export class ConfigFileStore {
  constructor(readonly path: string) {}

  /** The raw document as stored (references unresolved). */
  read(): Record<string, unknown> {
    return readRawConfig(this.path);
  }

  /** Applies `change` to the raw document and writes it back atomically. */
  update(change: (document: Record<string, unknown>) => void): void {
    const document = this.read();
    change(document);
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, yaml.dump(document, { noRefs: true }), { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }
}
