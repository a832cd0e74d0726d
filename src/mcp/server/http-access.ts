import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Principal } from '../../rbac/principal.js';
import type { RoleName } from '../../config/schema.js';

/** Verifies a Pilothouse session token (the JWT of `/api/auth/login`); throws when it is not valid. */
export interface SessionVerifier {
  principalFor(token: string): Promise<Principal>;
}

/** Who may call the Streamable HTTP transport, and from where. */
export interface HttpAccessPolicy {
  /** Static tokens (config `mcp_server.tokens`) as SHA-256 digests. */
  tokens: { name: string; sha256: Buffer }[];
  /** Session tokens of the Pilothouse sharing this data dir and signing key. */
  sessions?: SessionVerifier;
  /** The lowest role a session must have (admin when the server may write or run bash). */
  requiredRole: RoleName;
  /** `Host` values besides localhost/127.0.0.1/[::1] on the bound port (config `mcp_server.allowed_hosts`). */
  extraHosts: readonly string[];
  /** `Origin` values besides http://localhost|127.0.0.1|[::1] on the bound port (config `mcp_server.allowed_origins`). */
  extraOrigins: readonly string[];
}

export type AccessDecision = { allowed: true; caller: string } | { allowed: false; status: 401 | 403; message: string; reason: string };

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

async function callerOf(token: string, policy: HttpAccessPolicy): Promise<AccessDecision> {
  const digest = tokenDigest(token);
  const match = policy.tokens.find((entry) => timingSafeEqual(entry.sha256, digest));
  if (match) return { allowed: true, caller: `token:${match.name}` };
  let principal: Principal;
  try {
    if (!policy.sessions) throw new Error('no sessions');
    principal = await policy.sessions.principalFor(token);
  } catch {
    return { allowed: false, status: 401, message: 'invalid token', reason: 'invalid_token' };
  }
  if (roleRank[principal.role] < roleRank[policy.requiredRole]) {
    return { allowed: false, status: 403, message: `this MCP server needs role ${policy.requiredRole}`, reason: 'role' };
  }
  return { allowed: true, caller: principal.username };
}

/** Checks Host, Origin and the bearer token of one request to the HTTP transport bound on `port`. */
export async function checkHttpAccess(request: IncomingMessage, policy: HttpAccessPolicy, port: number): Promise<AccessDecision> {
  if (!hostAllowed(request, policy, port))
    return { allowed: false, status: 403, message: 'Host not allowed (mcp_server.allowed_hosts)', reason: 'host_not_allowed' };
  if (!originAllowed(request, policy, port))
    return { allowed: false, status: 403, message: 'Origin not allowed (mcp_server.allowed_origins)', reason: 'origin_not_allowed' };
  const match = /^Bearer\s+(\S+)$/i.exec((request.headers.authorization ?? '').trim());
  if (!match?.[1]) return { allowed: false, status: 401, message: 'a bearer token is required', reason: 'missing_token' };
  return callerOf(match[1], policy);
}
