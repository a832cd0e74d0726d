import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Next } from 'koa';
import type { Authenticator } from '../../auth/sessions/authenticator.js';
import { validation } from '../../errors.js';
import { errorMiddleware } from './error-middleware.js';
import { unauthorized } from '../../errors.js';
import { requestIdFrom } from './request-id.js';
import { staticFiles } from './static-files.js';
import { RoutePolicy } from './route-policy.js';
import { routeInput } from './route-input.js';
import { methodGuard } from './method-guard.js';
import { requestAuditFields } from '../audit-context.js';
import { bodyShape, yamlBody } from './yaml-body.js';
import { listenerAccess, type ListenerAccess } from './host-check.js';
import type { AppContext, RequestState, RouteSpec } from '../types.js';
import type { Config } from '../../config/schema.js';
import type { Metrics } from '../metrics.js';
import { sessionCookie } from '../session-cookie.js';
import type { Logger } from 'pino';
import type { AuditRecorder } from '../../audit/types.js';
import type { ClusterScope, ClusterScopes } from '../../clusters/scope.js';
import type { SessionStreams } from '../../auth/sessions/session-streams.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface HttpAppDeps {
  audit: AuditRecorder;
  config: Config;
  /** Every cluster's scope: a request's `?cluster=` picks one; its identities give the caller's cluster client. */
  clusters: ClusterScopes;
  logger: Logger;
  metrics: Metrics;
  /** The effective auth mode (`--auth-mode`, else config `auth.mode`): the `mode` label of the login metrics. */
  security: { readonly mode: string };
}

export interface AppOptions {
  authenticator: Authenticator;
  /** Middlewares run after the error middleware, before the body parser and routing (CORS, rate limits). */
  middlewares?: ((context: AppContext, next: Next) => Promise<void>)[];
  /** Hooks run right after authentication, before authorization (per-user rate limits); throw to refuse. */
  afterAuthenticate?: ((context: AppContext, spec: RouteSpec) => Promise<void> | void)[];
  /** With `-web`: the folder of the built web UI, served for every non-API GET. */
  staticRoot?: string;
  /** Host allowlist and embedded-service token, checked before anything else (default: loopback and IP literals only). */
  listener?: ListenerAccess;
  /** Where long-lived streams register with their session, so they end with it. */
  streams?: Pick<SessionStreams, 'register'>;
}

const securityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  // Styles may be inline: the editor (CodeMirror) and the terminal (xterm.js) inject <style> elements at run time
  // (ADR 0024). Scripts stay 'self' only.
  // img-src data: lets the editor draw its lint markers (data: SVG images; no script runs from an image).
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; object-src 'none'; base-uri 'self'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/** Routes whose answer is a sign-in: 2xx/3xx a login, 401/403 a refused one (by the configured auth mode). */
const signInRoutes = new Set(['/api/auth/login', '/api/auth/oidc/callback']);

/** Counts what a platform team alerts on: rate-limited requests, policy denials, logins. */
function countOutcome(deps: HttpAppDeps, route: string, status: number): void {
  if (status === 429) deps.metrics.rateLimited.inc({ route });
  if (signInRoutes.has(route)) {
    const mode = deps.security.mode;
    if (status < 400) deps.metrics.logins.inc({ mode });
    else if (status === 401 || status === 403) deps.metrics.loginFailures.inc({ mode });
    return;
  }
  if (status === 403) deps.metrics.policyDenials.inc({ path: 'routes' });
}

function requestSetup(deps: HttpAppDeps) {
  return async (context: AppContext, next: Next): Promise<void> => {
    const started = performance.now();
    context.state.requestId = requestIdFrom(context.get('X-Request-Id') || undefined);
    context.set('X-Request-Id', context.state.requestId);
    for (const [name, value] of Object.entries(securityHeaders)) context.set(name, value);
    try {
      await next();
    } finally {
      const route = context.state.routeTemplate ?? 'unmatched';
      const seconds = (performance.now() - started) / 1000;
      deps.metrics.httpDuration.observe({ method: context.method, route, status: String(context.status) }, seconds);
      countOutcome(deps, route, context.status);
      deps.logger.debug({ method: context.method, route, status: context.status, ms: Math.round(seconds * 1000) }, 'request');
    }
  };
}

/** Wraps a route's handler with authentication and the one policy (which audits its refusals). */
function guarded(deps: HttpAppDeps, options: AppOptions, policy: RoutePolicy, spec: RouteSpec) {
  return async (context: AppContext, next: Next): Promise<void> => {
    context.state.routeTemplate = spec.path;
    context.state.permission = spec.permission;
    if (spec.permission !== 'public') context.state.principal = await options.authenticator.authenticate(context);
    const principal = context.state.principal;
    // Who asks comes first: without credentials the answer is 401 whatever the request names (its cluster too).
    if (spec.permission !== 'public' && !principal) throw unauthorized('authentication required');
    await spec.authenticate?.(context);
    const scope = scopeFor(deps.clusters, context, spec);
    context.state.scope = scope;
    context.state.kube = () => scope.identities.clientFor(principal);
    const streams = options.streams;
    if (principal && streams) context.state.holdStream = (end) => streams.register(principal, end);
    for (const hook of options.afterAuthenticate ?? []) await hook(context, spec);
    await policy.authorize(context, spec);
    await spec.handler(context, routeInput(context, spec), next);
  };
}

/**
 * The cluster a request is about: `?cluster=NAME` on a cluster-facing route (404 for an unknown name; 503 at
 * once for a cluster other than home whose last probe failed, so it holds no connection), else the home cluster.
 */
function scopeFor(clusters: ClusterScopes, context: AppContext, spec: RouteSpec): ClusterScope {
  if (!spec.cluster) return clusters.home;
  const asked = context.query.cluster;
  // Named twice, the request is refused (400), never read as the home cluster's.
  if (Array.isArray(asked)) throw validation('cluster given more than once', { fields: { cluster: 'given more than once' } });
  const scope = clusters.resolve(asked);
  context.state.clusterName = scope.name;
  if (scope.name !== clusters.homeName) scope.health.assertReachable(scope.name);
  return scope;
}

/** Every 403 on a guarded action is recorded with decision deny (and the cluster the request is about). */
export function auditDenied(
  deps: Pick<HttpAppDeps, 'audit'>,
  context: AppContext,
  spec: Pick<RouteSpec, 'method' | 'path' | 'permission'>,
  reason: string,
): void {
  deps.audit.record({
    ...requestAuditFields(context),
    action: 'execute',
    resource: `route/${spec.method} ${spec.path}`,
    details: { method: context.method, path: context.path, permission: spec.permission, reason },
    decision: 'deny',
    outcome: 'forbidden',
  });
}

/** Builds the Koa application from the route table. */
export function createApp(deps: HttpAppDeps, routes: RouteSpec[], options: AppOptions): Koa<RequestState> {
  const app = new Koa<RequestState>({ proxy: deps.config.server.trusted_proxies.length > 0 });
  const router = new Router<RequestState>();
  // Errors after the response started (streams): a client leaving a log/SSE stream is normal.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') deps.logger.warn({ err: error }, 'response stream failed');
  });
  const policy = new RoutePolicy((context, spec, reason) => auditDenied(deps, context, spec, reason));
  for (const spec of routes) {
    router.register(spec.path, [spec.method], guarded(deps, options, policy, spec) as never);
  }
  app.use(requestSetup(deps) as never);
  app.use(errorMiddleware(deps.logger) as never);
  app.use(listenerAccess(options.listener ?? { allowedHosts: deps.config.server.allowed_hosts }) as never);
  // The browser's session cookie becomes the bearer credential; state-changing cookie requests need the CSRF header.
  app.use(sessionCookie({ audit: deps.audit, corsOrigins: deps.config.server.cors_origins }) as never);
  // Before the body parser, so rate limits and CORS also answer oversized or malformed bodies.
  for (const middleware of options.middlewares ?? []) app.use(middleware as never);
  // YAML bodies (manifests for apply) are parsed here; the JSON parser then leaves them alone.
  app.use(yamlBody(deps.config.server.body_limit) as never);
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: deps.config.server.body_limit,
      encoding: 'utf-8',
      onError: (error: Error) => {
        throw error;
      },
    }) as never,
  );
  // Depth of JSON bodies (YAML bodies were measured, aliases expanded, when parsed).
  app.use(bodyShape(deps.config.server.body_limit) as never);
  app.use(router.routes() as never);
  app.use(methodGuard(router as never) as never);
  if (options.staticRoot) app.use(staticFiles(options.staticRoot) as never);
  return app;
}
