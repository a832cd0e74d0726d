// Rewrites the permission table of docs/reference/permissions.md from the route table (the same specs the service
// serves), so it never drifts from the code. `make readme-permissions`; test/unit/readme-permissions.test.ts checks it.
//   node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types scripts/readme-permissions.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { parseConfig } from '../src/config/load.js';
import { allRoutes, type RouteDeps } from '../src/http/routes/index.js';
import { permissionTable } from '../src/http/routes/permission-table.js';
import { version } from '../src/version.js';

export const permissionsPagePath = new URL('../docs/reference/permissions.md', import.meta.url);

/** The page with its permission table replaced by the one generated from the routes. */
export function readmeWithPermissions(readme: string): string {
  const config = parseConfig({}, {}, 'readme');
  const table = permissionTable(allRoutes({ config, version, security: {}, pilot: {}, mcp: {} } as RouteDeps)).split('\n');
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| Method | Path | Permission |'));
  if (start < 0) throw new Error('docs/reference/permissions.md has no permission table');
  let end = start;
  while (end < lines.length && lines[end]!.startsWith('|')) end += 1;
  lines.splice(start, end - start, ...table);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(permissionsPagePath, readmeWithPermissions(readFileSync(permissionsPagePath, 'utf8')));
