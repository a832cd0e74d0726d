import type { Logger } from 'pino';
import type { UsersStore } from '../../store/users-store.js';
import { adminUsername } from './login.js';
import { generatePassword, hashPassword } from './passwords.js';

export interface AdminBootstrapOptions {
  /** `--admin-password`, `--admin-password-file` or `PILOTHOUSE_ADMIN_PASSWORD`: sets the admin's password at start, creating `admin` if missing. */
  adminPassword?: string;
  logger: Logger;
  /** Where a generated password is shown, once (stderr by default). Never the logs. */
  announce: (text: string) => void;
}

/**
 * Makes sure someone can log in. With `--admin-password` the `admin` account gets that password.
 * Without it and with no active admin in the store, a strong password is generated, shown once
 * and only its hash is kept.
 */
export async function ensureAdmin(users: UsersStore, options: AdminBootstrapOptions): Promise<void> {
  if (options.adminPassword !== undefined) {
    const passwordHash = await hashPassword(options.adminPassword);
    if (await users.find(adminUsername)) await users.update(adminUsername, { passwordHash });
    else await users.insert({ username: adminUsername, passwordHash, role: 'admin', email: null, roles: [], enabled: true });
    options.logger.info({ username: adminUsername }, 'admin password set at start (--admin-password, --admin-password-file or PILOTHOUSE_ADMIN_PASSWORD)');
    return;
  }
  if ((await users.find(adminUsername)) || (await users.countActiveAdmins()) > 0) return;
  const password = generatePassword();
  await users.insert({ username: adminUsername, passwordHash: await hashPassword(password), role: 'admin', email: null, roles: [], enabled: true });
  options.logger.warn({ username: adminUsername }, 'generated an admin password; it was printed once on stderr');
  options.announce(
    `\n*** Pilothouse created the user "${adminUsername}" with the generated password: ${password}\n` +
      '*** It is shown only this once. Log in with it and change it, or restart with --admin-password.\n\n',
  );
}
