import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAdminPassword } from './admin-password.js';
import { parseFlags, usage, UsageError } from './flags.js';

const folder = mkdtempSync(join(tmpdir(), 'pilothouse-admin-password-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A password file as a mounted Secret or `echo` writes it. */
function passwordFile(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

const resolve = (argv: string[], environment: NodeJS.ProcessEnv = {}): string | undefined => resolveAdminPassword(parseFlags(argv, environment), environment);

describe('the admin password at start', () => {
  it('is read from --admin-password-file: the content as is, without one trailing line break', () => {
    expect(resolve(['--admin-password-file', passwordFile('secret', 'from a Secret')])).toBe('from a Secret');
    expect(resolve(['--admin-password-file', passwordFile('echoed', ' spaced pw \n')])).toBe(' spaced pw ');
    expect(resolve(['--admin-password-file', passwordFile('crlf', 'windows\r\n')])).toBe('windows');
  });

  it('is read from PILOTHOUSE_ADMIN_PASSWORD when neither flag is given, and the variable leaves the environment', () => {
    const environment: NodeJS.ProcessEnv = { PILOTHOUSE_ADMIN_PASSWORD: 'from-env', HOME: '/home/u' };
    expect(resolveAdminPassword(parseFlags([], environment), environment)).toBe('from-env');
    expect(environment).toEqual({ HOME: '/home/u' });
    expect(resolve([])).toBeUndefined();
  });

  it('prefers a flag over the variable', () => {
    const file = passwordFile('flag-wins', 'file-pw');
    expect(resolve(['--admin-password-file', file], { PILOTHOUSE_ADMIN_PASSWORD: 'env-pw' })).toBe('file-pw');
    expect(resolve(['--admin-password', 'argument-pw'], { PILOTHOUSE_ADMIN_PASSWORD: 'env-pw' })).toBe('argument-pw');
  });

  it('refuses both flags, a missing or empty file and an empty password with a usage error naming the source', () => {
    const file = passwordFile('both', 'pw');
    expect(() => resolve(['--admin-password', 'pw', '--admin-password-file', file])).toThrow(UsageError);
    expect(() => resolve(['--admin-password', 'pw', '--admin-password-file', file])).toThrow(/give one of them/);
    expect(() => resolve(['--admin-password-file', join(folder, 'missing')])).toThrow(/--admin-password-file: cannot read .*missing \(ENOENT\)/);
    expect(() => resolve(['--admin-password-file', passwordFile('empty', '\n')])).toThrow(/--admin-password-file: .* is empty/);
    expect(() => resolve(['--admin-password-file'])).toThrow(UsageError);
    expect(() => resolve([], { PILOTHOUSE_ADMIN_PASSWORD: '' })).toThrow(/PILOTHOUSE_ADMIN_PASSWORD: the password is empty/);
  });

  it('lists the file flag and the variable in --help', () => {
    expect(parseFlags(['--help'], {}).command).toBe('help');
    expect(usage).toMatch(/--admin-password-file PATH/);
    expect(usage).toMatch(/PILOTHOUSE_ADMIN_PASSWORD/);
  });
});
