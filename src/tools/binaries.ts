import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder: the nearest ancestor of this module holding Pilothouse's package.json. */
export function packageRoot(start = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  let current = start;
  for (;;) {
    const manifest = path.join(current, 'package.json');
    if (existsSync(manifest) && isPilothouseManifest(manifest)) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function isPilothouseManifest(manifest: string): boolean {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'pilothouse';
  } catch {
    return false;
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH. */
export function findOnPath(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const directory of searchPath.split(path.delimiter)) {
    if (directory === '') continue;
    const candidate = path.join(directory, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Resolves the kubectl or helm binary: the configured override (`tools.kubectl` / `tools.helm`; a bare
 * name is looked up on PATH), else `<package root>/.tools/bin/<name>`, else the first on PATH.
 * Throws when none is found.
 */
export function findBinary(name: 'kubectl' | 'helm', override?: string): string {
  if (override) return override.includes('/') ? path.resolve(override) : (findOnPath(override) ?? override);
  const root = packageRoot();
  const bundled = root ? path.join(root, '.tools', 'bin', name) : undefined;
  if (bundled && isExecutable(bundled)) return bundled;
  const onPath = findOnPath(name);
  if (onPath) return onPath;
  throw new Error(`${name} binary not found: set tools.${name} in the configuration or put ${name} on PATH`);
}

/** Like findBinary, but undefined instead of an error when the program is not installed. */
export function findOptionalBinary(name: 'kubectl' | 'helm', override?: string): string | undefined {
  try {
    return findBinary(name, override);
  } catch {
    return undefined;
  }
}
