// Generates the clients' wire types from the OpenAPI document with openapi-typescript, in one run, into
// web/src/api/types.ts (the web UI) and src/tui/api/wire-types.ts (the terminal UI; src/ cannot import
// web/): the same text, never edited by hand. `--check` prints nothing and exits 1 when either is stale.
//   node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types scripts/web-types.ts [--check]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi.js';

const root = fileURLToPath(new URL('../', import.meta.url));
export const webTypesPath = join(root, 'web', 'src', 'api', 'types.ts');
export const tuiTypesPath = join(root, 'src', 'tui', 'api', 'wire-types.ts');
/** Every file the run writes, with the same generated text. */
export const generatedTypePaths = [webTypesPath, tuiTypesPath];

/** The text of the generated type files as the current route declarations produce it. */
export function generateWebTypes(): string {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-openapi-'));
  try {
    const input = join(directory, 'openapi.json');
    const output = join(directory, 'types.ts');
    writeFileSync(input, JSON.stringify(openApiDocument()));
    const cli = join(root, 'web', 'node_modules', '.bin', 'openapi-typescript');
    execFileSync(cli, [input, '--output', output, '--root-types', '--root-types-no-schema-prefix', '--alphabetize'], { stdio: 'pipe' });
    const header =
      '// Generated from the OpenAPI document (GET /api/openapi.json) by scripts/web-types.ts into web/src/api/types.ts and\n' +
      '// src/tui/api/wire-types.ts (make web-types): do not edit by hand.\n';
    return header + readFileSync(output, 'utf8');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const generated = generateWebTypes();
  const current = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');
  if (process.argv.includes('--check')) process.exit(generatedTypePaths.every((path) => current(path) === generated) ? 0 : 1);
  for (const path of generatedTypePaths) writeFileSync(path, generated);
}
