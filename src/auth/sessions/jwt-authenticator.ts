import { unauthorized } from '../../errors.js';
import type { AuthRequest, Authenticator } from './authenticator.js';
import type { Principal } from '../../rbac/principal.js';
import type { SessionManager } from './sessions.js';

export const refreshedTokenHeader = 'X-Refreshed-Token';
export const tokenExpiresHeader = 'X-Token-Expires-At';

/** Reads `Authorization: Bearer <token>`; undefined without the header, UNAUTHORIZED for other schemes. */
export function bearerToken(context: AuthRequest): string | undefined {
  const header = context.get('Authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match?.[1]) throw unauthorized('expected "Authorization: Bearer <token>"', { reason: 'malformed_header' });
  return match[1];
}

/**
 * Local-mode authentication: a JWT issued at login. A request made with a token inside its
 * refresh window gets a fresh token in `X-Refreshed-Token` (+ `X-Token-Expires-At`), unless the
 * session's absolute end (`max_session`) leaves nothing to extend.
 */
export class JwtAuthenticator implements Authenticator {
  constructor(private readonly sessions: SessionManager) {}

  async authenticate(context: AuthRequest): Promise<Principal | undefined> {
    const token = bearerToken(context);
    if (!token) return undefined;
    const principal = await this.sessions.principalFor(token);
    if (this.sessions.worthRefreshing(principal)) {
      const refreshed = await this.sessions.refresh(principal);
      context.set(refreshedTokenHeader, refreshed.token);
      context.set(tokenExpiresHeader, new Date(refreshed.expiresAt).toISOString());
    }
    return principal;
  }
}
