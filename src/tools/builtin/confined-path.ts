import { lstat, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';

/** A path inside the root, or why it is refused. */
export type ConfinedPath = { ok: true; path: string } | { ok: false; error: string };

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + path.sep);
}

/** Lexical checks: no NUL, no `..` segment, absolute paths only under the root. */
function lexicalTarget(realRoot: string, requested: string): ConfinedPath {
  if (requested.includes('\0')) return { ok: false, error: 'path contains a NUL byte' };
  if (requested.split(/[\\/]/).includes('..')) return { ok: false, error: 'path may not contain ".." segments' };
  const target = path.resolve(realRoot, requested);
  if (!isInside(realRoot, target)) return { ok: false, error: `path is outside the file root ${realRoot}` };
  return { ok: true, path: target };
}

async function existingAncestor(target: string): Promise<string> {
  let current = target;
  for (;;) {
    try {
      await lstat(current);
      return current;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return current;
      current = parent;
    }
  }
}

/** Resolves a path to read: it must exist and its real path (symlinks followed) must stay inside the root. */
export async function confinedReadPath(root: string, requested: string): Promise<ConfinedPath> {
  const realRoot = await realpath(root);
  const lexical = lexicalTarget(realRoot, requested);
  if (!lexical.ok) return lexical;
  let real: string;
  try {
    real = await realpath(lexical.path);
  } catch {
    return { ok: false, error: `no such file: ${requested}` };
  }
  return isInside(realRoot, real) ? { ok: true, path: real } : { ok: false, error: 'path leads outside the file root (symlink)' };
}

/**
 * Resolves a path to write: the real path of its nearest existing ancestor must stay inside the root;
 * missing parent folders are then created. The final component is opened without following symlinks.
 */
export async function confinedWritePath(root: string, requested: string): Promise<ConfinedPath> {
  const realRoot = await realpath(root);
  const lexical = lexicalTarget(realRoot, requested);
  if (!lexical.ok) return lexical;
  if (lexical.path === realRoot) return { ok: false, error: 'path names the file root itself' };
  const parent = path.dirname(lexical.path);
  const ancestor = await realpath(await existingAncestor(parent));
  if (!isInside(realRoot, ancestor)) return { ok: false, error: 'path leads outside the file root (symlink)' };
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const realParent = await realpath(parent);
  if (!isInside(realRoot, realParent)) return { ok: false, error: 'path leads outside the file root (symlink)' };
  return { ok: true, path: path.join(realParent, path.basename(lexical.path)) };
}
