import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi.js';

type Operation = {
  requestBody?: unknown;
  parameters: { name: string; in: string; schema: unknown }[];
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }>; headers?: Record<string, unknown> }>;
  security: unknown[];
};

const document = openApiDocument() as {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);
/** POSTs that act on the presented token alone. */
const withoutBody = new Set(['post /api/auth/logout', 'post /api/auth/refresh', 'post /api/llm/test']);

describe('the OpenAPI document generated from the route declarations', () => {
  it('declares a request body for every POST, PUT and PATCH', () => {
    const missing = operations.filter(
      ({ path, method, operation }) => ['post', 'put', 'patch'].includes(method) && !operation.requestBody && !withoutBody.has(`${method} ${path}`),
    );
    expect(missing.map(({ path, method }) => `${method} ${path}`)).toEqual([]);
  });

  it('names every path parameter and describes every success body', () => {
    for (const { path, method, operation } of operations) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
      expect(
        pathParameters.map((parameter) => parameter.name),
        `${method} ${path}`,
      ).toEqual(names);
      // Declared by the route's params schema, not the bare string every undeclared parameter gets.
      for (const parameter of pathParameters) expect(parameter.schema, `${method} ${path} ${parameter.name}`).not.toEqual({ type: 'string' });
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      const redirect = Object.entries(operation.responses).find(([status]) => status.startsWith('3'));
      // A success body, or (SSO sign-in) a redirect that names where it goes.
      expect(success?.[1].content ?? redirect?.[1].headers?.Location, `${method} ${path}`).toBeTruthy();
    }
  });

  it('answers errors with the one error body, and 401/403 wherever a token is needed', () => {
    for (const { path, method, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses).filter(([code]) => !/^[23]/.test(code))) {
        expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      }
      if (operation.security.length > 0) expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '403']));
    }
    expect(Object.keys(document.components.securitySchemes)).toEqual(['bearer', 'terminalTicket']);
  });

  it('describes the chat stream per event, as the contract names them', () => {
    const stream = document.paths['/api/chat/agentic']!.post!.responses['200']!.content?.['text/event-stream']?.schema as { oneOf: { title: string }[] };
    expect(stream.oneOf.map((event) => event.title)).toEqual(expect.arrayContaining(['chunk', 'tool_request', 'tool_execution', 'stream_end', 'error']));
    expect(document.paths['/api/node/drain/{id}']!.get!.responses['200']!.content).toHaveProperty('text/event-stream');
    expect(document.paths['/api/pods/{name}/logs']!.get!.responses['200']!.content).toHaveProperty('text/event-stream');
  });
});
