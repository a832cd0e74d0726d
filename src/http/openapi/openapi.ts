import type { z } from 'zod';
import { errorCodes } from '../../errors.js';
import { permissionMatrix } from '../permissions.js';
import { SchemaCollector, type JsonObject } from './openapi-schema.js';
import { operationLinks } from './openapi-links.js';
import { clusterParameter as clusterNameSchema } from '../schemas/cluster-schemas.js';
import type { RouteSpec } from '../types.js';

/** The one error body of the API. */
const errorSchema = {
  type: 'object',
  required: ['error', 'code', 'details'],
  properties: {
    error: { type: 'string' },
    code: { type: 'string', enum: errorCodes },
    details: { type: 'object' },
  },
};

const errorMeanings: Record<number, string> = {
  400: 'VALIDATION_ERROR: the request does not match the declared schemas (details.fields names them)',
  401: 'UNAUTHORIZED: missing, invalid or expired token',
  403: 'FORBIDDEN: the caller may not do this (details.reason)',
  404: 'NOT_FOUND',
  409: "CONFLICT: not possible in the object's current state (a report still generating; every 409 of the API server: an object that exists already or changed since it was read, an apply whose fields other managers own: details.conflicts [{field, manager, message}])",
  413: 'PAYLOAD_TOO_LARGE: the body passes server.body_limit',
  429: 'RATE_LIMITED: see the X-RateLimit-* headers; BUDGET_EXCEEDED: a daily LLM budget is used up (details: budget, used, resetsAt)',
  431: "PAYLOAD_TOO_LARGE: the request line (a long query string) and headers pass the HTTP server's header limit (details.part 'headers'); answered before routing",
  500: 'K8S_ERROR, LLM_ERROR or INTERNAL',
  503: 'UNAVAILABLE: a dependency (cluster, metrics API, controller) does not answer',
};

/** Each error status's answer, said once (components/responses) and referred to by every operation that has it. */
const errorResponseNames: Record<number, string> = {
  400: 'ValidationError',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  429: 'RateLimited',
  431: 'HeadersTooLarge',
  500: 'ServerError',
  503: 'Unavailable',
};

function errorResponses(): Record<string, JsonObject> {
  const content = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };
  return Object.fromEntries(Object.entries(errorResponseNames).map(([status, name]) => [name, { description: errorMeanings[Number(status)], content }]));
}

const rateHeaderNames = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
/** The rate-limit headers of every answer, said once (components/headers). */
const rateHeaderComponents = Object.fromEntries(rateHeaderNames.map((name) => [name, { description: name, schema: { type: 'integer' } }]));
const rateHeaders = Object.fromEntries(rateHeaderNames.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

function pathParameters(spec: RouteSpec, schemas: SchemaCollector): JsonObject[] {
  const declared = spec.params ? (schemas.convert(spec.params) as { properties?: Record<string, JsonObject> }).properties : undefined;
  return [...spec.path.matchAll(/:([A-Za-z_]+)/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    schema: declared?.[name] ?? { type: 'string' },
  }));
}

function queryParameters(spec: RouteSpec, schemas: SchemaCollector): JsonObject[] {
  if (!spec.query) return [];
  const schema = schemas.convert(spec.query) as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
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

/** The statuses a route answers with the error body. */
function errorStatuses(spec: RouteSpec): number[] {
  // 400: any request may be malformed (a field given twice, in the wrong place, or off its schema).
  // 431: any request line and headers may pass the header limit (src/http/pipeline/client-errors.ts answers before routing).
  const statuses = new Set<number>([400, 429, 431, 500, 503, ...(spec.errors ?? [])]);
  if (spec.body) statuses.add(413);
  if (spec.permission !== 'public') [401, 403].forEach((status) => statuses.add(status));
  // 404: a path parameter, a kind the cluster does not serve, or an unknown `?cluster=`.
  if (spec.resourceKind || spec.path.includes(':') || spec.cluster) statuses.add(404);
  return [...statuses].sort();
}

/**
 * An SSE answer, described per event (as OpenAPI 3.2's `itemSchema` does): each event is
 * `{event: <name>, data: <JSON text>}` whose data's JSON schema is its `contentSchema`.
 */
function eventStreamSchema(spec: RouteSpec, schemas: SchemaCollector): JsonObject {
  const events = Object.entries(spec.events ?? {}).map(([name, data]) => ({
    type: 'object',
    title: name,
    properties: { event: { const: name }, data: { type: 'string', contentMediaType: 'application/json', contentSchema: schemas.convert(data) } },
    required: ['event', 'data'],
  }));
  return { description: 'text/event-stream: one object per event (`: ping` comments keep the stream open)', oneOf: events };
}

function successContent(spec: RouteSpec, schemas: SchemaCollector): JsonObject {
  const content: JsonObject = {};
  for (const produces of [spec.produces ?? 'application/json'].flat()) {
    if (produces === 'application/json') content[produces] = { schema: spec.response ? schemas.convert(spec.response) : { type: 'object' } };
    else if (produces !== 'text/event-stream') content[produces] = { schema: { type: 'string' } };
  }
  // Event streams, and plain answers that also stream as SSE when asked (Accept: text/event-stream).
  if (spec.events) content['text/event-stream'] = { schema: eventStreamSchema(spec, schemas) };
  return content;
}

/** A body whose fields are all optional may be left out (the route reads it as `{}`). */
function bodyRequired(body: z.ZodType): boolean {
  return !body.safeParse({}).success;
}

/** The success answer: a body, a redirect (SSO sign-in: a Location, no body) or a WebSocket upgrade (the terminal). */
function successResponse(spec: RouteSpec, schemas: SchemaCollector, operationId: string): JsonObject {
  const status = spec.status ?? 200;
  if (status === 101) return { description: 'Switching Protocols: the connection becomes a WebSocket' };
  if (status >= 300 && status < 400) {
    return { description: 'Redirect', headers: { ...rateHeaders, Location: { description: 'Where the client goes next', schema: { type: 'string' } } } };
  }
  const links = operationLinks[operationId];
  return { description: 'Success', headers: rateHeaders, content: successContent(spec, schemas), ...(links ? { links } : {}) };
}

/** `getApiK8sResourceName` of `GET /api/k8s/:resource/:name`. */
export function operationIdOf(spec: Pick<RouteSpec, 'method' | 'path'>): string {
  return `${spec.method.toLowerCase()}${spec.path.replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase())}`;
}

/** `?cluster=NAME` of every cluster-facing route, said once (components/parameters/cluster; ADR 0035). */
const clusterParameterRef = { $ref: '#/components/parameters/cluster' };

function clusterParameter(schemas: SchemaCollector): JsonObject {
  return {
    name: 'cluster',
    in: 'query',
    required: false,
    description:
      'The cluster the request is about, by name (GET /api/clusters); absent: the home cluster. An unknown name answers 404 NOT_FOUND with details.cluster; a cluster other than home whose last probe failed answers 503 UNAVAILABLE at once.',
    schema: schemas.convert(clusterNameSchema),
  };
}

function operation(spec: RouteSpec, schemas: SchemaCollector): JsonObject {
  const operationId = operationIdOf(spec);
  const responses: Record<string, JsonObject> = { [String(spec.status ?? 200)]: successResponse(spec, schemas, operationId) };
  for (const status of errorStatuses(spec)) responses[String(status)] = { $ref: `#/components/responses/${errorResponseNames[status]}` };
  return {
    operationId,
    summary: spec.summary,
    description: `Permission: \`${spec.permission}\` — allowed for ${roles(spec) || 'nobody'}.`,
    'x-permission': spec.permission,
    security: spec.permission === 'public' ? [] : [{ bearer: [] }],
    parameters: [...pathParameters(spec, schemas), ...queryParameters(spec, schemas), ...(spec.cluster ? [clusterParameterRef] : [])],
    ...(spec.body ? { requestBody: { required: bodyRequired(spec.body), content: { 'application/json': { schema: schemas.convert(spec.body) } } } } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every route, generated from the route declarations and their zod schemas. */
export function buildOpenApiDocument(routes: RouteSpec[], version: string): JsonObject {
  const schemas = new SchemaCollector();
  const cluster = clusterParameter(schemas);
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const spec of routes) {
    const path = spec.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][spec.method.toLowerCase()] = operation(spec, schemas);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pilothouse API',
      version,
      description:
        'Kubernetes control room with an AI pilot. Errors use the body {error, code, details}. Rate-limit headers X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (Unix seconds) are on every API response.',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        terminalTicket: {
          type: 'apiKey',
          in: 'query',
          name: 'ticket',
          description: 'One-time terminal ticket (POST /api/pods/{name}/terminal/ticket); or the WebSocket subprotocol `bearer.<token>`',
        },
      },
      parameters: { cluster: cluster },
      headers: rateHeaderComponents,
      responses: errorResponses(),
      schemas: { ErrorBody: errorSchema, ...sortedKeys(schemas.components) },
    },
    paths,
  };
}

function sortedKeys(record: Record<string, JsonObject>): Record<string, JsonObject> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
