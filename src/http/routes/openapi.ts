import type { AppDeps } from '../../deps.js';
import { buildOpenApiDocument } from '../openapi.js';
import { route, type RouteSpec } from '../types.js';

/** GET /api/openapi.json: the API description, generated from the route table (given all routes). */
export function openApiRoutes(deps: AppDeps, routes: () => RouteSpec[]): RouteSpec[] {
  let document: Record<string, unknown> | undefined;
  return [
    route({
      method: 'GET',
      path: '/api/openapi.json',
      permission: 'public',
      summary: 'The OpenAPI 3.1 document of this API',
      handler: async (context) => {
        document ??= buildOpenApiDocument(routes(), deps.version);
        context.body = document;
      },
    }),
  ];
}
