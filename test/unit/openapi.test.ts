import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi.js';

type Link = { operationId: string; parameters: Record<string, string> };

type Operation = {
  requestBody?: unknown;
  parameters: { name: string; in: string; schema: unknown }[];
  operationId: string;
  responses: Record<
    string,
    { content?: Record<string, { schema?: Record<string, unknown> }>; headers?: Record<string, unknown>; links?: Record<string, Link>; $ref?: string }
  >;
  security: unknown[];
};

const document = openApiDocument() as {
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, unknown>;
    responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
  };
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
      // A success body, (SSO sign-in) a redirect that names where it goes, or (the terminal) a WebSocket upgrade.
      expect(success?.[1].content ?? redirect?.[1].headers?.Location ?? operation.responses['101'], `${method} ${path}`).toBeTruthy();
    }
  });

  it('answers every operation with a named schema (a $ref into components/schemas), never an inline object', () => {
    const anonymous: string[] = [];
    for (const { path, method, operation } of operations) {
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      // Only the SSO redirects (3xx with a Location) and the terminal's WebSocket upgrade (101) answer without a 2xx.
      if (!success) {
        expect(
          Object.keys(operation.responses).some((status) => /^(3\d\d|101)$/.test(status)),
          `${method} ${path}`,
        ).toBe(true);
        continue;
      }
      const schema = success[1].content?.['application/json']?.schema;
      if (schema && typeof schema.$ref !== 'string') anonymous.push(`${method} ${path}`);
      const reference = typeof schema?.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : undefined;
      if (reference) expect(document.components.schemas, `${method} ${path}`).toHaveProperty([reference]);
    }
    expect(anonymous).toEqual([]);
  });

  it('names every request body (a $ref into components/schemas), never an inline object', () => {
    const anonymous: string[] = [];
    for (const { path, method, operation } of operations) {
      const body = operation.requestBody as { content: Record<string, { schema?: { $ref?: unknown } }> } | undefined;
      for (const [type, content] of Object.entries(body?.content ?? {})) {
        const reference = content.schema?.$ref;
        if (typeof reference !== 'string') anonymous.push(`${method} ${path} ${type}`);
        else expect(document.components.schemas, `${method} ${path}`).toHaveProperty([reference.replace('#/components/schemas/', '')]);
      }
    }
    expect(anonymous).toEqual([]);
  });

  it('links what a create answers to the operations that read, change and delete it', () => {
    const byId = new Map(operations.map((entry) => [entry.operation.operationId, entry]));
    const linked = new Set<string>();
    for (const { operation } of operations) {
      for (const response of Object.values(operation.responses)) {
        for (const [name, link] of Object.entries(response.links ?? {})) {
          const target = byId.get(link.operationId);
          expect(target, `${operation.operationId} → ${name}`).toBeDefined();
          const pathNames = target!.operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
          expect(pathNames, `${operation.operationId} → ${name}`).toEqual(Object.keys(link.parameters));
          linked.add(operation.operationId);
        }
      }
    }
    expect([...linked].sort()).toEqual(
      ['postApiAccessRequests', 'postApiAdminUsers', 'postApiHelmRepositories', 'postApiMcpServers', 'postApiPortforward', 'postApiReports'].sort(),
    );
  });

  it('answers errors with the one error body, each error answer said once (components/responses), and 401/403 wherever a token is needed', () => {
    for (const { path, method, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses).filter(([code]) => !/^([23]\d\d|101)$/.test(code))) {
        const name = response.$ref?.replace('#/components/responses/', '') ?? '';
        expect(document.components.responses[name]?.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
          $ref: '#/components/schemas/ErrorBody',
        });
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
