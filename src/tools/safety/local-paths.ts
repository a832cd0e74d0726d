import path from 'node:path';

/** Where local files named on a kubectl command line may be: the files root (config `tools.files.root`). */
export interface PathContext {
  /** Absolute folder; without it no local file may be named. */
  filesRoot?: string;
}

const hostLike = /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?$/i;

/** Why a value names something other than a local file (a URL, a git remote), or undefined. */
export function remoteReason(value: string): string | undefined {
  if (value.includes('://')) return `"${value}" is a URL; kubectl would fetch it`;
  if (/^(git@|git::|ssh:|gh:)/i.test(value) || value.includes('?ref=') || value.includes('//')) return `"${value}" names a remote repository`;
  const [first, ...rest] = value.split('/');
  if (rest.length > 0 && first !== undefined && hostLike.test(first)) return `"${value}" looks like a remote repository (host name)`;
  return undefined;
}

/**
 * Lexical check of a local path kubectl would open: no `..` segment, no `~`, absolute paths only
 * under the files root, relative paths only when a files root exists (they resolve inside it: the
 * kubectl tool runs there). Returns why the path is refused, or undefined. Symlinks are checked again
 * by the kubectl tool before it runs.
 */
export function localPathReason(value: string, context: PathContext): string | undefined {
  const remote = remoteReason(value);
  if (remote) return remote;
  if (value === '') return 'an empty path';
  const root = context.filesRoot;
  if (!root) return `"${value}" is a local file and no files root is configured (tools.files.root)`;
  if (value.startsWith('~')) return `"${value}" is in a home folder, outside the files root`;
  if (value.split(/[\\/]/).includes('..')) return `"${value}" has a ".." segment`;
  const resolved = path.posix.resolve(root, value);
  const inside = resolved === root || resolved.startsWith(root.endsWith('/') ? root : `${root}/`);
  return inside ? undefined : `"${value}" is outside the files root`;
}

/** pflag's string-slice split (comma separated; quoted CSV fields are refused rather than guessed). */
export function sliceValues(value: string): string[] | undefined {
  if (value.includes('"')) return undefined;
  return value === '' ? [] : value.split(',');
}
