// Prints the OpenAPI document of the route table (the same one GET /api/openapi.json serves), built
// without a cluster: route factories only capture their services (some pick fields of one), they
// call none while declaring, so the few they read while declaring are enough (as in route-table.test.ts).
//   node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types scripts/openapi.ts > openapi.json
import { parseConfig } from '../src/config/load.js';
import { buildOpenApiDocument } from '../src/http/openapi/openapi.js';
import { allRoutes, type RouteDeps } from '../src/http/routes/index.js';
import { version } from '../src/version.js';

export function openApiDocument(): Record<string, unknown> {
  const config = parseConfig({}, {}, 'openapi');
  return buildOpenApiDocument(allRoutes({ config, version, security: {}, pilot: {}, mcp: {} } as RouteDeps), version);
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
