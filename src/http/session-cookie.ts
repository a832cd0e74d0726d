import type { Next } from 'koa';
import { forbidden } from '../errors.js';
import { refreshedTokenHeader } from '../auth/sessions/jwt-authenticator.js';
import type { AuditRecorder } from '../audit/types.js';
import type { AppContext } from './types.js';

/**
 * The browser's session credential (ADR 0050): the session JWT in an HttpOnly, SameSite=Strict cookie, so every
 * tab of one browser shares one sign-in and no script can read the token. Bearer headers keep working unchanged
 * (API and TUI clients); the cookie is read only when a request carries no `Authorization` header.
 */
export const csrfHeader = 'X-Pilothouse-CSRF';
/** On answers to cookie requests: the caller's role now, so the web notices an admin's change at its next request. */
export const roleHeader = 'X-Pilothouse-Role';
const plainName = 'pilothouse-session';
const hostName = '__Host-pilothouse-session';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

function cookieName(context: AppContext): string {
  return context.secure ? hostName : plainName;
}

function cookieValue(context: AppContext): string | undefined {
  const value = context.cookies.get(hostName) ?? context.cookies.get(plainName);
  return value ? value.slice(0, 4096) : undefined;
}

/** `Max-Age` only to clear: a set cookie lives as long as the browser session, the token inside it until its `exp`. */
function writeCookie(context: AppContext, value: string, maxAge?: number): void {
  const secure = context.secure ? '; Secure' : '';
  const age = maxAge === undefined ? '' : `; Max-Age=${maxAge}`;
  context.append('Set-Cookie', `${cookieName(context)}=${value}; Path=/${age}; HttpOnly; SameSite=Strict${secure}`);
}

/**
 * Sets the session cookie at a sign-in (password, LDAP or SSO) and at a refresh. A browser-session cookie: the
 * token's own expiry (checked by the service, on its clock) is what ends it, never the browser's clock.
 */
export function setSessionCookie(context: AppContext, token: string): void {
  writeCookie(context, token);
}

/** Clears the session cookie (logout). */
export function clearSessionCookie(context: AppContext): void {
  writeCookie(context, '', 0);
}

/** Whether the request's `Origin` (when a browser sent one) is the service's own or a configured CORS origin. */
function originFits(context: AppContext, corsOrigins: readonly string[]): boolean {
  const origin = context.get('Origin');
  if (!origin) return context.get('Sec-Fetch-Site') !== 'cross-site';
  if (corsOrigins.includes(origin)) return true;
  return URL.canParse(origin) && new URL(origin).host === context.host.toLowerCase();
}

/**
 * Reads the session cookie of a request without a bearer header into `Authorization`, so the one authenticator
 * judges it. A state-changing request made with the cookie must also carry `X-Pilothouse-CSRF` (a header no
 * cross-site form or simple request can set) and come from the service's own origin: otherwise 403 FORBIDDEN
 * (`details.reason: csrf`), audited. A token the authenticator refreshed replaces the cookie (and is not shown to
 * scripts in `X-Refreshed-Token`). Answers carry the caller's current role in `X-Pilothouse-Role`.
 */
/** A state-changing cookie request without the CSRF header or from a foreign origin: audited, then 403. */
function refuseCrossSite(context: AppContext, audit: AuditRecorder): never {
  audit.record({
    user: 'unknown',
    source: context.ip,
    requestId: context.state.requestId,
    action: 'execute',
    resource: `route/${context.method} ${context.path}`,
    details: { method: context.method, path: context.path, reason: 'csrf', origin: context.get('Origin') || undefined },
    decision: 'deny',
    outcome: 'forbidden',
  });
  throw forbidden(`a request made with the session cookie needs the ${csrfHeader} header and this service's own origin`, { reason: 'csrf' });
}

/** After the answer: a refreshed token goes into the cookie (not to scripts); the caller's role into its header. */
function finishCookieAnswer(context: AppContext): void {
  const role = context.state.principal?.role;
  if (role) context.set(roleHeader, role);
  const refreshed = context.response.get(refreshedTokenHeader);
  if (!refreshed) return;
  setSessionCookie(context, refreshed);
  context.remove(refreshedTokenHeader);
}

export function sessionCookie(deps: { audit: AuditRecorder; corsOrigins: readonly string[] }) {
  return async (context: AppContext, next: Next): Promise<void> => {
    const token = context.get('Authorization') ? undefined : cookieValue(context);
    if (!token) return next();
    if (!safeMethods.has(context.method) && (!context.get(csrfHeader) || !originFits(context, deps.corsOrigins))) refuseCrossSite(context, deps.audit);
    context.request.headers.authorization = `Bearer ${token}`;
    context.state.cookieSession = true;
    try {
      await next();
    } finally {
      finishCookieAnswer(context);
    }
  };
}
