import { readFileSync } from 'node:fs';
import { UsageError, type Flags } from './flags.js';

/** The environment variable for the admin password when neither flag is given (the file is preferred: see docs/operator-manual/install.md). */
export const adminPasswordVariable = 'PILOTHOUSE_ADMIN_PASSWORD';

/** The file's text without one trailing line break (`echo pw > file`), never trimmed further: spaces may be part of a password. */
function readPasswordFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--admin-password-file: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const password = text.replace(/\r?\n$/, '');
  if (password === '') throw new UsageError(`--admin-password-file: ${path} is empty`);
  return password;
}

/**
 * The admin password to set at start: `--admin-password`, else the file of `--admin-password-file`
 * (a mounted Secret: nothing in the process's arguments or environment), else `PILOTHOUSE_ADMIN_PASSWORD`.
 * The variable is removed from this process's environment once read, so no program it starts inherits it.
 * Both flags together are a usage error; so is an empty password from any source.
 */
export function resolveAdminPassword(flags: Pick<Flags, 'adminPassword' | 'adminPasswordFile'>, environment: NodeJS.ProcessEnv): string | undefined {
  const fromEnvironment = environment[adminPasswordVariable];
  delete environment[adminPasswordVariable];
  if (flags.adminPassword !== undefined && flags.adminPasswordFile !== undefined) {
    throw new UsageError('--admin-password and --admin-password-file: give one of them');
  }
  if (flags.adminPassword === '') throw new UsageError('--admin-password: the password is empty');
  if (flags.adminPassword !== undefined) return flags.adminPassword;
  if (flags.adminPasswordFile !== undefined) return readPasswordFile(flags.adminPasswordFile);
  if (fromEnvironment === undefined) return undefined;
  if (fromEnvironment === '') throw new UsageError(`${adminPasswordVariable}: the password is empty`);
  return fromEnvironment;
}
