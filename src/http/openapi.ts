import { z } from 'zod';
import { permissionMatrix } from './permissions.js';
import type { RouteSpec } from './types.js';

type JsonObject = Record<string, unknown>;

const errorSchema = {
  type: 'object',
  required: ['error', 'code', 'details'],
  properties: {
    error: { type: 'string' },
    code: { type: 'string', enum: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR', 'K8S_ERROR', 'LLM_ERROR', 'RATE_LIMITED', 'PAYLOAD_TOO_LARGE', 'UNAVAILABLE', 'INTERNAL'] },
    details: { type: 'object' },
  },
};

function toJsonSchema(schema: z.ZodType | undefined): JsonObject | undefined {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  } catch {
    return { type: 'object' };
  }
}

function pathParameters(path: string): JsonObject[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
}

function queryParameters(spec: RouteSpec): JsonObject[] {
  const schema = toJsonSchema(spec.query) as { properties?: Record<string, JsonObject>; required?: string[] } | undefined;
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema?.required?.includes(name) ?? false,
    schema: property,
  }));
}

function roles(spec: RouteSpec): string {
  const entry = permissionMatrix[spec.permission];
  return Object.entries(entry)
    .filter(([, decision]) => decision !== 'no')
    .map(([role, decision]) => (decision === 'approval' ? `${role} (with an approved access request)` : role))
    .join(', ');
}

function operation(spec: RouteSpec): JsonObject {
  const body = toJsonSchema(spec.body);
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  return {
    summary: spec.summary,
    description: `Permission: \`${spec.permission}\` — allowed for ${roles(spec) || 'nobody'}.`,
    'x-permission': spec.permission,
    security: spec.permission === 'public' ? [] : [{ bearer: [] }],
    parameters: [...pathParameters(spec.path), ...queryParameters(spec)],
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses: {
      '200': { description: 'Success', content: { [spec.produces ?? 'application/json']: {} } },
      '400': { description: 'VALIDATION_ERROR', content: errorContent },
      '401': { description: 'UNAUTHORIZED', content: errorContent },
      '403': { description: 'FORBIDDEN', content: errorContent },
      '404': { description: 'NOT_FOUND', content: errorContent },
      '429': { description: 'RATE_LIMITED', content: errorContent },
      '500': { description: 'K8S_ERROR or LLM_ERROR', content: errorContent },
    },
  };
}

/** The OpenAPI 3.1 document of every route, generated from the route table and its zod schemas. */
export function buildOpenApiDocument(routes: RouteSpec[], version: string): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const spec of routes) {
    const path = spec.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][spec.method.toLowerCase()] = operation(spec);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pilothouse API',
      version,
      description: 'Kubernetes control room with an AI pilot. Errors use the body {error, code, details}. Rate-limit headers X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (Unix seconds) are on every API response.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}
