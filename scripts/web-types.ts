// Generates the clients' wire module in one run, into web/src/api (the web UI) and src/tui/api (the terminal
// UI; src/ cannot import web/), the same text in both trees, never edited by hand: the wire types from the
// OpenAPI document with openapi-typescript (types.ts, wire-types.ts) and the shared client code of
// scripts/wire-client.ts (wire-client.ts in both). `--check` prints nothing and exits 1 when any is stale.
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
const wireClientSource = join(root, 'scripts', 'wire-client.ts');
/** The copies of scripts/wire-client.ts (error class, request, SSE reader), one per client tree. */
export const wireClientPaths = [join(root, 'web', 'src', 'api', 'wire-client.ts'), join(root, 'src', 'tui', 'api', 'wire-client.ts')];

/** The text of the wire-client copies: scripts/wire-client.ts under a do-not-edit header. */
export function generateWireClient(): string {
  const header =
    '// Generated from scripts/wire-client.ts by scripts/web-types.ts into web/src/api/wire-client.ts and\n' +
    '// src/tui/api/wire-client.ts (make web-types): do not edit by hand.\n';
  return header + readFileSync(wireClientSource, 'utf8');
}

/** The text of the generated type files as the current route declarations produce it. */
export function generateWebTypes(): string {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-openapi-'));
  try {
    const input = join(directory, 'openapi.json');
    const output = join(directory, 'types.ts');
    writeFileSync(input, JSON.stringify(openApiDocument()));
    const cli = join(root, 'web', 'node_modules', '.bin', 'openapi-typescript');
    execFileSync(cli, [input, '--output', output, '--root-types', '--root-types-no-schema-prefix', '--alphabetize', '--default-non-nullable', 'false'], {
      stdio: 'pipe',
    });
    const header =
      '// Generated from the OpenAPI document (GET /api/openapi.json) by scripts/web-types.ts into web/src/api/types.ts and\n' +
      '// src/tui/api/wire-types.ts (make web-types): do not edit by hand.\n';
    return header + readFileSync(output, 'utf8');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const types = generateWebTypes();
  const client = generateWireClient();
  const files = [...generatedTypePaths.map((path) => ({ path, text: types })), ...wireClientPaths.map((path) => ({ path, text: client }))];
  const current = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');
  if (process.argv.includes('--check')) process.exit(files.every(({ path, text }) => current(path) === text) ? 0 : 1);
  for (const { path, text } of files) writeFileSync(path, text);
}
