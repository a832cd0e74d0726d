import { buildOpenApiDocument } from '../openapi/openapi.js';
import { anyObject } from '../schemas/api-schemas.js';
import { route, type RouteSpec } from '../types.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface OpenapiRouteDeps {
  version: string;
}

/** GET /api/openapi.json: the API description, generated from the route table (given all routes). */
export function openApiRoutes(deps: OpenapiRouteDeps, routes: () => RouteSpec[]): RouteSpec[] {
  let document: Record<string, unknown> | undefined;
  return [
    route({
      method: 'GET',
      path: '/api/openapi.json',
      permission: 'public',
      summary: 'The OpenAPI 3.1 document of this API',
      response: anyObject.meta({ id: 'OpenApiDocument' }),
      handler: async (context) => {
        document ??= buildOpenApiDocument(routes(), deps.version);
        context.body = document;
      },
    }),
  ];
}
