import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Next } from 'koa';
import { AppError } from '../../errors.js';
import type { Config } from '../../config/schema.js';
import type { AppContext } from '../types.js';

/** The header the embedded service of `pilothouse tui` requires on every request (its per-process token). */
export const embedTokenHeader = 'X-Pilothouse-Embed-Token';

/** Who may reach one listener of the API. */
export interface ListenerAccess {
  /**
   * Host names the listener answers besides IP literals and `localhost`: `server.allowed_hosts`,
   * the name the listener is bound to and the host of `oidc.redirect_url`. `*` answers any name;
   * `*.example.com` any name below example.com.
   */
  allowedHosts: readonly string[];
  /** Set by `pilothouse tui` for its embedded service: every request must carry it in {@link embedTokenHeader}. */
  embedToken?: string;
}

/** The host name of a `Host` header (lower case, no port, no trailing dot; IPv6 without brackets); undefined when malformed. */
export function hostNameOf(header: string | undefined): string | undefined {
  if (!header || !URL.canParse(`http://${header}`)) return undefined;
  const url = new URL(`http://${header}`);
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

function nameMatches(name: string, pattern: string): boolean {
  const allowed = pattern.toLowerCase().replace(/\.$/, '');
  if (allowed === '*' || allowed === name) return true;
  return allowed.startsWith('*.') && name.endsWith(allowed.slice(1));
}

/**
 * DNS-rebinding defence: a browser tricked into sending requests to this listener under a foreign
 * name sends that name as `Host`. IP literals and `localhost` cannot be rebound, so they always pass
 * (kubelet probes and Prometheus call the pod by its IP); any other name must be allowed.
 */
export function hostAllowed(header: string | undefined, allowedHosts: readonly string[]): boolean {
  const name = hostNameOf(header);
  if (name === undefined) return false;
  if (isIP(name) !== 0 || name === 'localhost') return true;
  return allowedHosts.some((pattern) => nameMatches(name, pattern));
}

function tokenMatches(presented: string | undefined, expected: string): boolean {
  const given = Buffer.from(presented ?? '', 'utf8');
  const wanted = Buffer.from(expected, 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * The names a listener on `listenHost` answers: `server.allowed_hosts`, the bound host when it is a
 * name, and the host of `oidc.redirect_url` (the service's public address when SSO is on).
 */
export function allowedHostsFor(config: Pick<Config, 'server' | 'oidc'>, listenHost: string): string[] {
  const names = [...config.server.allowed_hosts];
  if (isIP(listenHost) === 0 && listenHost !== '') names.push(listenHost);
  const redirect = config.oidc.redirect_url;
  if (redirect && URL.canParse(redirect)) names.push(new URL(redirect).hostname);
  return names;
}

/**
 * The first check of every request (plain and WebSocket upgrades alike): the `Host` must name this
 * listener (403 FORBIDDEN, reason `host_not_allowed`), and an embedded service answers only the
 * process that started it (401 UNAUTHORIZED, reason `embed_token`, whatever the auth mode).
 */
export function listenerAccess(access: ListenerAccess) {
  return async (context: AppContext, next: Next): Promise<void> => {
    if (!hostAllowed(context.get('Host') || undefined, access.allowedHosts)) {
      throw new AppError('FORBIDDEN', 'this Host is not served here; add it to server.allowed_hosts', { reason: 'host_not_allowed' });
    }
    if (access.embedToken !== undefined && !tokenMatches(context.get(embedTokenHeader) || undefined, access.embedToken)) {
      throw new AppError('UNAUTHORIZED', 'this service answers only the terminal UI that started it', { reason: 'embed_token' });
    }
    await next();
  };
}
