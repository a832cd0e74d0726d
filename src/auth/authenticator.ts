import type { AppContext } from '../http/types.js';
import type { Principal } from './principal.js';

/**
 * Establishes who is calling. Returns undefined when the request carries no credentials;
 * throws UNAUTHORIZED for credentials that are present but invalid.
 */
export interface Authenticator {
  authenticate(context: AppContext): Promise<Principal | undefined>;
}

/** `--no-auth`: every request acts as the admin user `anonymous` (development only). */
export class NoAuthAuthenticator implements Authenticator {
  async authenticate(): Promise<Principal> {
    return { username: 'anonymous', role: 'admin', roles: [] };
  }
}
