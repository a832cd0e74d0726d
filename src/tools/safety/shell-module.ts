import { createRequire } from 'node:module';
import type { ShellSyntax } from 'mvdan-sh';

const require = createRequire(import.meta.url);
let loaded: ShellSyntax | undefined;

/**
 * mvdan/sh's syntax package (GopherJS, ~1.5 MB of script that builds its Go runtime when evaluated),
 * loaded on the first shell line parsed rather than at start (~15 MiB of RSS until then).
 */
export function shellSyntax(): ShellSyntax {
  loaded ??= (require('mvdan-sh') as { syntax: ShellSyntax }).syntax;
  return loaded;
}
