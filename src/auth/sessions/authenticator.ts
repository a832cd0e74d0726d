import type { Principal } from '../../rbac/principal.js';

/**
 * Establishes who is calling. Returns undefined when the request carries no credentials;
 * throws UNAUTHORIZED for credentials that are present but invalid.
 */
export interface Authenticator {
  authenticate(context: AuthRequest): Promise<Principal | undefined>;
}

/**
 * What authentication reads and writes of an HTTP request (headers, client address, request id):
 * declared here so auth stays below the HTTP layer; Koa's context satisfies it.
 */
export interface AuthRequest {
  get(header: string): string;
  set(header: string, value: string): void;
  readonly ip: string;
  readonly state: { readonly requestId: string };
}

/** `--no-auth`: every request acts as the admin user `anonymous` (development only). */
export class NoAuthAuthenticator implements Authenticator {
  async authenticate(): Promise<Principal> {
    return { username: 'anonymous', role: 'admin', roles: [] };
  }
}
