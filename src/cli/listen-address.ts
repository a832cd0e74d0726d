import { isIPv4, isIPv6 } from 'node:net';
import type { Config } from '../config/schema.js';
import { UsageError, type Flags } from './flags.js';

/** The one banner for running without authentication, whether from `--no-auth` or config `auth.mode: none`. */
export const noAuthBanner =
  '\n*** WARNING: --no-auth (auth.mode: none): authentication is OFF, every request is admin "anonymous". Never use this in production. ***\n\n';

/** Whether authentication ends up off: `--no-auth`, or config `auth.mode: none` when `--auth-mode` does not override it. */
export function authDisabled(flags: Pick<Flags, 'noAuth' | 'authMode'>, config: Config): boolean {
  return flags.noAuth || (flags.authMode === undefined && config.auth.mode === 'none');
}

/** Loopback names and addresses: `localhost`, 127.0.0.0/8, `::1` (also as `::ffff:127.x.y.z`). */
export function isLoopback(host: string): boolean {
  const address = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (address === 'localhost') return true;
  if (isIPv4(address)) return address.startsWith('127.');
  if (!isIPv6(address)) return false;
  // The URL parser writes IPv6 addresses in their shortest form (`::ffff:127.0.0.1` → `::ffff:7f00:1`).
  const canonical = new URL(`http://[${address}]/`).hostname;
  return canonical === '[::1]' || canonical.startsWith('[::ffff:7f');
}

/**
 * Where `serve` listens. With authentication on: `--host`, else `server.host`. With it off, only
 * loopback, unless `--host` names another address AND `--no-auth-allow-remote` is given (the
 * config file alone can never expose an unauthenticated service); otherwise a UsageError (exit 2).
 */
export function listenHost(flags: Pick<Flags, 'noAuth' | 'authMode' | 'host' | 'noAuthAllowRemote'>, config: Config): string {
  if (!authDisabled(flags, config)) return flags.host ?? config.server.host;
  if (flags.host === undefined) return isLoopback(config.server.host) ? config.server.host : '127.0.0.1';
  if (isLoopback(flags.host) || flags.noAuthAllowRemote) return flags.host;
  throw new UsageError(
    `--host ${flags.host}: authentication is off (--no-auth or auth.mode: none), so Pilothouse listens on loopback only; add --no-auth-allow-remote to expose it anyway`,
  );
}
