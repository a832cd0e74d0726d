import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/load.js';
import { loadSigningKey, SigningKeyError } from './signing-key.js';

const folder = mkdtempSync(join(tmpdir(), 'pilothouse-signing-key-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const logger = pino({ level: 'silent' });
const key = 'a-key-of-a-mounted-secret-48-characters-long-abcd';

describe('the JWT signing key', () => {
  it('is the content of authorization.jwt.signing_key_file (a mounted Secret), the same bytes as the key given inline', () => {
    const file = join(folder, 'jwt-secret');
    writeFileSync(file, `${key}\n`);
    const config = parseConfig({ authorization: { jwt: { signing_key_file: file } } }, {});
    expect(Buffer.from(loadSigningKey(config.authorization.jwt, folder, logger)).toString()).toBe(key);
    expect(loadSigningKey(config.authorization.jwt, folder, logger)).toEqual(loadSigningKey({ signing_key: key }, folder, logger));
  });

  it('refuses a missing, empty or short key file at start, naming the key', () => {
    const short = join(folder, 'short');
    writeFileSync(short, 'too-short');
    const empty = join(folder, 'empty');
    writeFileSync(empty, '\n');
    expect(() => loadSigningKey({ signing_key_file: join(folder, 'missing') }, folder, logger)).toThrow(
      /authorization\.jwt\.signing_key_file: cannot read .*missing \(ENOENT\)/,
    );
    expect(() => loadSigningKey({ signing_key_file: empty }, folder, logger)).toThrow(/signing_key_file: .*empty is empty/);
    expect(() => loadSigningKey({ signing_key_file: short }, folder, logger)).toThrow(SigningKeyError);
    expect(() => loadSigningKey({ signing_key_file: short }, folder, logger)).toThrow(/signing_key_file must be at least 32 characters/);
  });

  it('is set one way: the config refuses signing_key and signing_key_file together', () => {
    expect(() => parseConfig({ authorization: { jwt: { signing_key: key, signing_key_file: '/keys/jwt' } } }, {})).toThrow(
      /authorization\.jwt\.signing_key_file: set signing_key or signing_key_file, not both/,
    );
  });
});
