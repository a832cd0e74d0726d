import type { RoleName } from '../config/schema.js';

/** Who is making a request, as established by authentication. */
export interface Principal {
  /** Unique user name (`anonymous` under --no-auth, `mcp` in MCP server mode). */
  readonly username: string;
  /** The base role of the permission matrix. */
  readonly role: RoleName;
  /** Extra resource-level role names from config `authorization.roles`. */
  readonly roles: readonly string[];
  /** Groups named by the identity provider (SSO, prefixed); used toward the cluster in `impersonation.mode: user`. */
  readonly groups?: readonly string[];
  /** Where the identity comes from when it is not a local account (`oidc` for SSO users). */
  readonly identitySource?: 'oidc';
  /** Session id of the JWT, when the request carries one. */
  readonly sessionId?: string;
  /** Expiry of the presented token (ms since the epoch), when the request carries one. */
  readonly tokenExpiresAt?: number;
  /** The role whose impersonation mapping this principal acts with toward clusters, when not `role` (investigations: `investigations.identity.mapping`). */
  readonly identityRole?: RoleName;
  /** When the session of the JWT ends for good (login + `authorization.jwt.max_session`, ms); refresh never passes it. */
  readonly sessionEndsAt?: number;
}
