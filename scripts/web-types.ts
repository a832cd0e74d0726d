// Generates the clients' wire types once, into the local package packages/wire (`@pilothouse/wire`),
// which the web UI (web/) and the terminal UI (src/tui/) both import: types.ts from the OpenAPI document
// with openapi-typescript, never edited by hand (its neighbour wire-client.ts is written by hand, once;
// docs/adr/0036-one-wire-package.md). `--check` prints nothing and exits 1 when types.ts is stale.
//   node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types scripts/web-types.ts [--check]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi.js';

const root = fileURLToPath(new URL('../', import.meta.url));
/** The one file the run writes: the wire types of packages/wire (`@pilothouse/wire/types`), imported by web/ and src/tui/. */
export const wireTypesPath = join(root, 'packages', 'wire', 'types.ts');

/** The text of packages/wire/types.ts as the current route declarations produce it. */
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
      '// Generated from the OpenAPI document (GET /api/openapi.json) by scripts/web-types.ts into packages/wire/types.ts\n' +
      '// (make web-types), imported as @pilothouse/wire/types by web/ and src/tui/: do not edit by hand.\n';
    return header + readFileSync(output, 'utf8');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const types = generateWebTypes();
  const current = existsSync(wireTypesPath) ? readFileSync(wireTypesPath, 'utf8') : '';
  if (process.argv.includes('--check')) process.exit(current === types ? 0 : 1);
  writeFileSync(wireTypesPath, types);
}
