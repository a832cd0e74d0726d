import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from './load.js';

const folder = mkdtempSync(join(tmpdir(), 'pilothouse-database-url-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('database.url_file', () => {
  it('reads the shared store URL from the file (a mounted Secret), not from the config file or the environment', () => {
    const file = join(folder, 'url');
    writeFileSync(file, 'postgres://pilothouse:pw@db:5432/pilothouse\n');
    expect(parseConfig({ database: { url_file: file, pool_size: 3 } }, {}).database).toMatchObject({
      url: 'postgres://pilothouse:pw@db:5432/pilothouse',
      pool_size: 3,
    });
    // The environment variable still wins over the file, as over database.url.
    expect(parseConfig({ database: { url_file: file } }, { PILOTHOUSE_DATABASE_URL: 'postgres://env@db/x' }).database.url).toBe('postgres://env@db/x');
  });

  it('refuses a missing file, a URL that is not postgres, and url together with url_file, naming the key', () => {
    expect(() => parseConfig({ database: { url_file: join(folder, 'missing') } }, {})).toThrow(/database\.url_file: cannot read .*missing \(ENOENT\)/);
    const wrong = join(folder, 'wrong');
    writeFileSync(wrong, 'mysql://db/x');
    expect(() => parseConfig({ database: { url_file: wrong } }, {})).toThrow(/database\.url: must be a postgres/);
    expect(() => parseConfig({ database: { url: 'postgres://a@b/c', url_file: wrong } }, {})).toThrow(/set database\.url or database\.url_file, not both/);
  });
});
