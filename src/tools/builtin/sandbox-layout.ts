import { lstatSync, readlinkSync } from 'node:fs';

/** One top-level system path as the sandbox shows it: a read-only bind of a folder, or the same symlink. */
export type SystemEntry = { path: string; kind: 'folder' } | { path: string; kind: 'symlink'; target: string };

/** Top-level folders of the system the shell needs (programs and libraries); `/usr` is always bound. */
const systemRoots = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/**
 * The only entries of the host's `/etc` the sandbox sees (read-only, each skipped when absent):
 * name resolution, public CA certificates, the dynamic linker's cache, Debian's alternatives
 * symlinks (awk, editor...), the time zone, and the account names (no passwords: no shadow).
 * Deliberately not `/etc/ssl` as a whole (`/etc/ssl/private` holds private keys) and not the rest of
 * `/etc` (the chart mounts the config file under `/etc/pilothouse`).
 */
export const etcAllowlist: readonly string[] = [
  '/etc/alternatives',
  '/etc/ca-certificates',
  '/etc/ca-certificates.conf',
  '/etc/ssl/certs',
  '/etc/ssl/openssl.cnf',
  '/etc/pki/tls/certs',
  '/etc/pki/ca-trust/extracted',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/hosts',
  '/etc/host.conf',
  '/etc/nsswitch.conf',
  '/etc/resolv.conf',
  '/etc/gai.conf',
  '/etc/passwd',
  '/etc/group',
];

function entryOf(root: string): SystemEntry | undefined {
  try {
    const stats = lstatSync(root);
    if (stats.isSymbolicLink()) return { path: root, kind: 'symlink', target: readlinkSync(root) };
    return stats.isDirectory() ? { path: root, kind: 'folder' } : undefined;
  } catch {
    return undefined;
  }
}

/** The host's `/bin`, `/lib*` and `/sbin` as they are (merged-/usr systems have symlinks there). */
export function readSystemLayout(): SystemEntry[] {
  return systemRoots.map(entryOf).filter((entry): entry is SystemEntry => entry !== undefined);
}
