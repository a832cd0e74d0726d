import { setSessionCookie } from '../session-cookie.js';
import { z } from 'zod';
import { isAppError, type AppError } from '../../errors.js';
import type { OidcService } from '../../auth/oidc/oidc-service.js';
import type { SignInOrigin } from '../../auth/oidc/oidc-sign-in.js';
import type { AuthModeName } from '../../auth/security-services.js';
import { session } from '../schemas/api-schemas.js';
import { route, type AppContext, type RouteSpec } from '../types.js';

/** Request bodies, named in the OpenAPI document (components/schemas). */
const deviceStartBody = z.object({}).meta({ id: 'DeviceStartBody' });
const deviceTokenBody = z.object({ handle: z.string().min(1).max(128) }).meta({ id: 'DeviceTokenBody' });

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface OidcRouteDeps {
  security: { mode: AuthModeName; oidc: OidcService };
}

const callbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  session_state: z.string().max(2048).optional(),
});

const deviceStart = z
  .object({
    handle: z.string(),
    userCode: z.string(),
    verificationUri: z.string(),
    verificationUriComplete: z.string().optional(),
    expiresIn: z.number().int(),
    interval: z.number().int(),
  })
  .meta({ id: 'DeviceSignIn' });

const devicePoll = z.union([z.object({ status: z.literal('pending'), interval: z.number().int() }), session.extend({ status: z.literal('complete') })]).meta({
  id: 'DeviceSignInPoll',
});

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A refused browser sign-in as a small page that says why (the API's error body for other clients). */
function refusalPage(context: AppContext, error: AppError): void {
  const reason = typeof error.details.reason === 'string' ? error.details.reason : error.code;
  const claim = typeof error.details.claim === 'string' ? `<p>Claim: <code>${escapeHtml(error.details.claim)}</code></p>` : '';
  context.status = 401;
  context.type = 'text/html; charset=utf-8';
  context.set('Cache-Control', 'no-store');
  context.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in refused</title></head><body style="font-family:sans-serif;max-width:40rem;margin:4rem auto">
<h1>Sign-in refused</h1><p>${escapeHtml(error.message)}</p><p>Reason: <code>${escapeHtml(reason)}</code></p>${claim}<p><a href="/">Back to Pilothouse</a></p></body></html>`;
}

/**
 * The cookie that carries a browser's sign-ins under way, sealed (src/auth/oidc/oidc-sign-in-seal.ts), and so binds
 * each to the browser that started it (login CSRF, ADR 0020): HttpOnly, SameSite=Lax (sent on the provider's
 * top-level redirect back), Secure with the `__Host-` prefix when the callback is HTTPS (no sibling subdomain
 * can plant it). Ten minutes, like the sign-in state.
 */
function bindingCookie(context: AppContext, oidc: OidcService): { name: string; attributes: string } {
  return context.secure || oidc.httpsCallback
    ? { name: '__Host-pilothouse-sso', attributes: 'Path=/; Max-Age=600; HttpOnly; Secure; SameSite=Lax' }
    : { name: 'pilothouse-sso', attributes: 'Path=/api/auth/oidc/; Max-Age=600; HttpOnly; SameSite=Lax' };
}

/** A compact JWE (five base64url parts), of a size a sign-in cookie can have. */
const sealedCookie = /^[A-Za-z0-9_-]{1,512}\.[A-Za-z0-9_-]{0,512}\.[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{1,3500}\.[A-Za-z0-9_-]{1,64}$/;

/** The browser's sign-in cookie, as sent (opened and checked by the flow: an ill-formed one is refused there, never ignored). */
function signInCookie(context: AppContext, oidc: OidcService): string | undefined {
  const value = context.cookies.get(bindingCookie(context, oidc).name);
  return value === undefined || value === '' ? undefined : value.slice(0, 4096);
}

/** The sign-in cookie when it is well formed, to keep its sign-ins at a new start (an ill-formed one is replaced). */
function keptCookie(context: AppContext, oidc: OidcService): string | undefined {
  const value = signInCookie(context, oidc);
  return value && sealedCookie.test(value) ? value : undefined;
}

/** Single sign-on with OpenID Connect (docs/operator-manual/authentication.md, "Single sign-on"): browser and device flows, and what the login page shows. */
export function oidcRoutes(deps: OidcRouteDeps): RouteSpec[] {
  const oidc = deps.security.oidc;
  const origin = (context: AppContext, flow: string): SignInOrigin => ({
    source: context.ip,
    userAgent: context.get('User-Agent') || undefined,
    requestId: context.state.requestId,
    flow,
  });
  return [
    route({
      method: 'GET',
      path: '/api/auth/sso',
      permission: 'public',
      summary: 'What the login page offers: the auth mode and, under SSO, the button label and the sign-in URL',
      response: z
        .object({ mode: z.string(), sso: z.object({ enabled: z.boolean(), buttonLabel: z.string(), loginUrl: z.string() }) })
        .meta({ id: 'SignInOptions' }),
      handler: async (context) => {
        context.body = { mode: deps.security.mode, sso: oidc.info() };
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/oidc/login',
      permission: 'public',
      summary: "Starts a browser sign-in: redirects (302) to the identity provider's authorization endpoint (PKCE, state, nonce)",
      status: 302,
      errors: [404],
      handler: async (context) => {
        // A browser with sign-ins already under way keeps them in its new cookie, so two tabs can both finish.
        const started = await oidc.flows.authorizationUrl(keptCookie(context, oidc));
        const cookie = bindingCookie(context, oidc);
        context.append('Set-Cookie', `${cookie.name}=${started.cookie}; ${cookie.attributes}`);
        context.set('Cache-Control', 'no-store');
        context.redirect(started.url);
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/oidc/callback',
      permission: 'public',
      summary:
        "The provider's redirect back: checks state, code (PKCE) and ID token, then redirects to the web UI with a Pilothouse session in the URL fragment",
      query: callbackQuery,
      status: 302,
      errors: [401, 404],
      handler: async (context) => {
        const flows = oidc.flows;
        try {
          const result = await flows.callback(new URLSearchParams(context.querystring), origin(context, 'browser'), signInCookie(context, oidc));
          const fragment = new URLSearchParams({ token: result.token, expires_at: result.expires_at, username: result.username, role: result.role });
          context.set('Cache-Control', 'no-store');
          // The browser's credential from here on: the session cookie (the fragment stays for clients that read it).
          setSessionCookie(context, result.token);
          context.redirect(`/login/sso#${fragment.toString()}`);
        } catch (error) {
          if (!isAppError(error) || !context.accepts('json', 'html') || context.accepts('json', 'html') === 'json') throw error;
          refusalPage(context, error);
        }
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/oidc/device',
      permission: 'public',
      summary: 'Starts a device sign-in (terminal UI, scripts): the verification URL and user code to show, and a handle to poll with',
      body: deviceStartBody,
      response: deviceStart,
      errors: [401, 404],
      handler: async (context) => {
        context.body = await oidc.flows.startDevice(origin(context, 'device'));
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/oidc/device/token',
      permission: 'public',
      summary: 'Polls a device sign-in: {status: pending, interval} until the user signs in, then the Pilothouse session (once)',
      body: deviceTokenBody,
      response: devicePoll,
      errors: [401, 404],
      handler: async (context, { body }) => {
        context.body = await oidc.flows.device(body.handle);
      },
    }),
  ];
}
