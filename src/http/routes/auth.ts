import { refreshedTokenHeader, tokenExpiresHeader } from '../../auth/sessions/jwt-authenticator.js';
import { loginBodySchema } from '../../auth/users/user-schemas.js';
import { unauthorized, validation } from '../../errors.js';
import { requestAuditFields } from '../audit-context.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import { z } from 'zod';
import { session } from '../schemas/api-schemas.js';
import { clearSessionCookie, setSessionCookie } from '../session-cookie.js';
import type { SecurityServices } from '../../auth/security-services.js';
import type { AuditRecorder } from '../../audit/types.js';

/** Request bodies, named in the OpenAPI document (components/schemas). */
const loginBody = loginBodySchema.meta({ id: 'LoginBody' });

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface AuthRouteDeps {
  audit: AuditRecorder;
  security: SecurityServices;
}

function sessionPrincipal(context: AppContext): { sessionId: string; tokenExpiresAt: number } {
  const principal = context.state.principal;
  if (!principal?.sessionId || principal.tokenExpiresAt === undefined) throw unauthorized('this request carries no session token', { reason: 'no_session' });
  return { sessionId: principal.sessionId, tokenExpiresAt: principal.tokenExpiresAt };
}

/** Login, logout and refresh belong to Pilothouse sessions, which token mode does not use. */
function refuseInTokenMode(deps: AuthRouteDeps, what: string): void {
  if (deps.security.mode !== 'token') return;
  throw validation(`${what} is not used in token mode; present a Kubernetes token as "Authorization: Bearer <token>"`, { authMode: 'token' });
}

/** Authentication (docs/operator-manual/authentication.md): login, logout, refresh, and who am I. */
export function authRoutes(deps: AuthRouteDeps): RouteSpec[] {
  const { login, sessions } = deps.security;
  return [
    route({
      method: 'POST',
      path: '/api/auth/login',
      permission: 'public',
      summary: 'Log in: {password} for the admin or {username, password}; returns {token, expires_at, username, role}',
      body: loginBody,
      response: session,
      errors: [401],
      handler: async (context, { body }) => {
        refuseInTokenMode(deps, 'login');
        const signedIn = await login.login({
          ...body,
          source: context.ip,
          userAgent: context.get('User-Agent') || undefined,
          requestId: context.state.requestId,
        });
        // A browser's tabs share this sign-in through the HttpOnly session cookie (ADR 0050).
        setSessionCookie(context, signedIn.token);
        context.body = signedIn;
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/logout',
      permission: 'authenticated',
      summary: "End the session of the presented token at once; under SSO also the provider's logout URL (RP-initiated logout)",
      response: z.object({ loggedOut: z.boolean(), endSessionUrl: z.string().optional() }).meta({ id: 'LoggedOut' }),
      handler: async (context) => {
        refuseInTokenMode(deps, 'logout');
        const { sessionId } = sessionPrincipal(context);
        await sessions.revoke(sessionId);
        clearSessionCookie(context);
        deps.audit.record({ ...requestAuditFields(context), action: 'logout', resource: `session/${sessionId}`, decision: 'allow', outcome: 'success' });
        const endSessionUrl = context.state.principal?.identitySource === 'oidc' ? deps.security.oidc.endSessionUrl() : undefined;
        context.body = endSessionUrl ? { loggedOut: true, endSessionUrl } : { loggedOut: true };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/refresh',
      permission: 'authenticated',
      summary: 'New {token, expires_at} when the presented token is inside its refresh window',
      response: z.object({ token: z.string(), expires_at: z.string() }).meta({ id: 'RefreshedToken' }),
      handler: async (context) => {
        refuseInTokenMode(deps, 'refresh');
        const { tokenExpiresAt } = sessionPrincipal(context);
        if (!sessions.inRefreshWindow(tokenExpiresAt)) {
          const opensAt = new Date(sessions.refreshOpensAt(tokenExpiresAt)).toISOString();
          throw validation(`refresh opens at ${opensAt} (inside the refresh window before expiry)`, { refreshOpensAt: opensAt });
        }
        // A token inside its window was already refreshed by the authenticator: hand out that one.
        const refreshed = context.response.get(refreshedTokenHeader);
        if (refreshed) {
          context.body = { token: refreshed, expires_at: context.response.get(tokenExpiresHeader) };
          return;
        }
        const issued = await sessions.refresh(context.state.principal!);
        if (context.state.cookieSession) setSessionCookie(context, issued.token);
        context.body = { token: issued.token, expires_at: new Date(issued.expiresAt).toISOString() };
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/me',
      permission: 'authenticated',
      summary: "The caller: {username, role, roles, expires_at, session_ends_at} (the session's absolute end, which no refresh extends)",
      response: z
        .object({
          username: z.string(),
          role: z.string(),
          roles: z.array(z.string()),
          expires_at: z.string().nullable(),
          session_ends_at: z.string().nullable(),
        })
        .meta({ id: 'Me' }),
      handler: async (context) => {
        const principal = context.state.principal!;
        const iso = (at: number | undefined): string | null => (at === undefined ? null : new Date(at).toISOString());
        context.body = {
          username: principal.username,
          role: principal.role,
          roles: principal.roles,
          expires_at: iso(principal.tokenExpiresAt),
          session_ends_at: iso(principal.sessionEndsAt),
        };
      },
    }),
  ];
}
