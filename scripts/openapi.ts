// Prints the OpenAPI document of the route table (the same one GET /api/openapi.json serves), built
// without a cluster: route factories only capture their dependencies, they call none while declaring.
//   node --import ./test/fixtures/mcp/register-ts.mjs --experimental-transform-types scripts/openapi.ts > openapi.json
import { parseConfig } from '../src/config/load.js';
import type { AppDeps } from '../src/deps.js';
import { buildOpenApiDocument } from '../src/http/openapi.js';
import { allRoutes } from '../src/http/routes/index.js';
import { version } from '../src/version.js';

/** Stands in for any dependency while the routes are declared. */
function anything(): unknown {
  const proxy: unknown = new Proxy(function placeholder(): void {}, {
    get: (_target, key) => (key === 'then' ? undefined : proxy),
    apply: () => proxy,
    construct: () => proxy as object,
  });
  return proxy;
}

export function openApiDocument(): Record<string, unknown> {
  const known: Partial<AppDeps> = { config: parseConfig({}, {}, 'openapi'), version };
  const deps = new Proxy(known, { get: (target, key) => (key in target ? target[key as keyof AppDeps] : anything()) }) as AppDeps;
  return buildOpenApiDocument(allRoutes(deps), version);
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
