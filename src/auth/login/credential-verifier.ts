import type { UserRecord, UsersStore } from '../../store/users-store.js';
import { generatePassword, hashPassword, verifyPassword } from './passwords.js';

/**
 * Checks a login's credentials for LoginService. Returns the user when they are valid and
 * undefined when they are not; other refusals throw an UNAUTHORIZED AppError with
 * `details.reason` (LoginService audits, counts and rethrows them).
 */
export interface CredentialVerifier {
  /** The login name as this verifier compares it: the key of the login throttle and what `verify` gets. */
  normalizeUsername(username: string): string;
  verify(username: string, password: string): Promise<UserRecord | undefined>;
}

/** Local accounts: the password hash in the users store (directory users have none and never match). */
export class LocalPasswordVerifier implements CredentialVerifier {
  private decoy?: Promise<string>;

  constructor(private readonly users: UsersStore) {}

  /** Local usernames are exact (letters, digits, `._@-`): only surrounding spaces go. */
  normalizeUsername(username: string): string {
    return username.trim();
  }

  /** A decoy hash is checked for unknown users so timing reveals nothing. */
  async verify(username: string, password: string): Promise<UserRecord | undefined> {
    const user = await this.users.find(username);
    const hash = user?.source === 'local' ? user.passwordHash : null;
    if (!hash) {
      this.decoy ??= hashPassword(generatePassword());
      await verifyPassword(password, await this.decoy);
      return undefined;
    }
    return (await verifyPassword(password, hash)) ? user : undefined;
  }
}
