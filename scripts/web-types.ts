// Generates web/src/api/types.ts from the OpenAPI document with openapi-typescript (never edit that file
// by hand). `--check` prints nothing and exits 1 when the committed file is stale.
//   node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types scripts/web-types.ts [--check]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi.js';

const root = fileURLToPath(new URL('../', import.meta.url));
export const webTypesPath = join(root, 'web', 'src', 'api', 'types.ts');

/** The text of web/src/api/types.ts as the current route declarations produce it. */
export function generateWebTypes(): string {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-openapi-'));
  try {
    const input = join(directory, 'openapi.json');
    const output = join(directory, 'types.ts');
    writeFileSync(input, JSON.stringify(openApiDocument()));
    const cli = join(root, 'web', 'node_modules', '.bin', 'openapi-typescript');
    execFileSync(cli, [input, '--output', output, '--root-types', '--root-types-no-schema-prefix', '--alphabetize'], { stdio: 'pipe' });
    const header = '// Generated from the OpenAPI document (GET /api/openapi.json) by scripts/web-types.ts: do not edit by hand.\n';
    return header + readFileSync(output, 'utf8');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const generated = generateWebTypes();
  if (process.argv.includes('--check')) process.exit(readFileSync(webTypesPath, 'utf8') === generated ? 0 : 1);
  writeFileSync(webTypesPath, generated);
}
