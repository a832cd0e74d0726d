import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAppError } from '../../errors.js';
import type { Principal } from '../../rbac/principal.js';
import type { RoleName } from '../../config/schema.js';

/** What the web API's authenticators read of a request (src/auth/sessions/authenticator.ts `CallerRequest`, declared here: mcp/ does not import auth/). */
export interface CallerRequest {
  get(header: string): string;
  set(header: string, value: string): void;
  readonly ip: string;
  readonly state: { readonly requestId: string };
}

/** Establishes who calls: undefined without credentials, throws UNAUTHORIZED for bad ones (the web API's `Authenticator`). */
export interface CallerAuthenticator {
  authenticate(request: CallerRequest): Promise<Principal | undefined>;
}

/** Who may use the Streamable HTTP transport, and from where. */
export interface HttpAccessPolicy {
  /** Static tokens (config `mcp_server.tokens`) as SHA-256 digests, and the principal each one acts as. */
  tokens: { name: string; sha256: Buffer }[];
  /** The principal of a static token named `name`. */
  tokenPrincipal(name: string): Principal;
  /**
   * The web API's own authenticator for the auth mode (session JWTs with revocation and lock
   * checks, TokenReview in token mode, OIDC ID tokens): the caller's principal with their roles.
   * Absent under `auth.mode: none` (only static tokens are served then).
   */
  authenticator?: CallerAuthenticator;
  /** The lowest role a caller must have (admin when the server may write or run bash). */
  requiredRole: RoleName;
  /** `Host` values besides localhost/127.0.0.1/[::1] on the bound port (config `mcp_server.allowed_hosts`). */
  extraHosts: readonly string[];
  /** `Origin` values besides http://localhost|127.0.0.1|[::1] on the bound port (config `mcp_server.allowed_origins`). */
  extraOrigins: readonly string[];
}

export type AccessDecision = { allowed: true; caller: Principal } | { allowed: false; status: 401 | 403; message: string; reason: string };

const roleRank: Record<RoleName, number> = { viewer: 0, user: 1, admin: 2 };

/** The SHA-256 digest of a token (what `mcp_server.tokens[].sha256` holds, in hex). */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function loopbackNames(port: number): string[] {
  return ['localhost', '127.0.0.1', '[::1]'].map((host) => `${host}:${port}`);
}

/** DNS-rebinding defence (MCP transport security): the `Host` must name this server. */
function hostAllowed(request: IncomingMessage, policy: HttpAccessPolicy, port: number): boolean {
  const host = (request.headers.host ?? '').toLowerCase();
  return loopbackNames(port).includes(host) || policy.extraHosts.some((allowed) => allowed.toLowerCase() === host);
}

/** A browser's `Origin` must be this server's own or configured; clients without one are judged by their token. */
function originAllowed(request: IncomingMessage, policy: HttpAccessPolicy, port: number): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return loopbackNames(port).some((name) => origin === `http://${name}`) || policy.extraOrigins.includes(origin);
}

/** The request as the web API's authenticators read it; headers they set (a refreshed session token) go on the response. */
function authRequestOf(request: IncomingMessage, response: ServerResponse): CallerRequest {
  return {
    get: (header) => {
      const value = request.headers[header.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : (value ?? '');
    },
    set: (header, value) => void response.setHeader(header, value),
    ip: request.socket.remoteAddress ?? '',
    state: { requestId: randomUUID() },
  };
}

/** The refusal of a credential the authenticator rejected (revoked, locked, expired...): 401 with its reason. */
function refusalOf(error: unknown): AccessDecision {
  if (isAppError(error) && error.code === 'UNAUTHORIZED') {
    const reason = typeof error.details.reason === 'string' ? error.details.reason : 'invalid_token';
    return { allowed: false, status: 401, message: error.message, reason };
  }
  if (isAppError(error) && error.code === 'FORBIDDEN') return { allowed: false, status: 403, message: error.message, reason: 'forbidden' };
  return { allowed: false, status: 401, message: 'invalid token', reason: 'invalid_token' };
}

async function callerOf(token: string, policy: HttpAccessPolicy, request: CallerRequest): Promise<AccessDecision> {
  const digest = tokenDigest(token);
  const match = policy.tokens.find((entry) => timingSafeEqual(entry.sha256, digest));
  let principal: Principal | undefined;
  try {
    principal = match ? policy.tokenPrincipal(match.name) : await policy.authenticator?.authenticate(request);
  } catch (error) {
    return refusalOf(error);
  }
  if (!principal) return { allowed: false, status: 401, message: 'invalid token', reason: 'invalid_token' };
  if (roleRank[principal.role] < roleRank[policy.requiredRole]) {
    return { allowed: false, status: 403, message: `this MCP server needs role ${policy.requiredRole}`, reason: 'role' };
  }
  return { allowed: true, caller: principal };
}

/**
 * Checks Host, Origin and the bearer token of one request to the HTTP transport bound on `port`;
 * the caller is the token's principal, authenticated exactly as the web API does it.
 */
export async function checkHttpAccess(request: IncomingMessage, response: ServerResponse, policy: HttpAccessPolicy, port: number): Promise<AccessDecision> {
  if (!hostAllowed(request, policy, port))
    return { allowed: false, status: 403, message: 'Host not allowed (mcp_server.allowed_hosts)', reason: 'host_not_allowed' };
  if (!originAllowed(request, policy, port))
    return { allowed: false, status: 403, message: 'Origin not allowed (mcp_server.allowed_origins)', reason: 'origin_not_allowed' };
  const match = /^Bearer\s+(\S+)$/i.exec((request.headers.authorization ?? '').trim());
  if (!match?.[1]) return { allowed: false, status: 401, message: 'a bearer token is required', reason: 'missing_token' };
  return callerOf(match[1], policy, authRequestOf(request, response));
}
