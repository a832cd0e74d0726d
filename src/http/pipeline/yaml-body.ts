import * as yaml from 'js-yaml';
import type { Next } from 'koa';
import { AppError, validation } from '../../errors.js';
import type { AppContext } from '../types.js';

/** Content types read as YAML request bodies (the apply route takes manifests as YAML or JSON). */
export const yamlTypes = ['application/yaml', 'application/x-yaml', 'text/yaml'];

/**
 * Aliases (`*ref`) one YAML body may use. Each alias repeats its anchor's whole subtree when the
 * value is sent on as JSON, so a few nested ones expand a tiny body a billionfold ("billion laughs");
 * the expanded size is capped as well ({@link assertBodyShape}).
 */
export const maxYamlAliases = 64;

/** Nesting depth of a request body (YAML or JSON); Kubernetes objects, schemas included, stay far below. */
export const maxBodyDepth = 100;

async function readText(context: AppContext, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of context.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new AppError('PAYLOAD_TOO_LARGE', 'request body too large', {});
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON length of a leaf (strings without escapes: an estimate, never an overestimate). */
function leafSize(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  return String(value).length;
}

/** The entries of a container (key length + quotes + colon + comma for objects), or undefined for a leaf. */
function childrenOf(value: unknown): { children: unknown[]; overhead: number } | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) return { children: value, overhead: 2 + value.length };
  const entries = Object.entries(value);
  return { children: entries.map(([, child]) => child), overhead: 2 + entries.reduce((sum, [key]) => sum + key.length + 4, 0) };
}

/**
 * Walks a parsed body as it will be serialized (a value reached through several aliases counts
 * each time) and refuses it once it grows past `limit` bytes (413 PAYLOAD_TOO_LARGE) or nests
 * deeper than {@link maxBodyDepth} (400). The walk stops at the limit, so its work is bounded by it.
 */
export function assertBodyShape(value: unknown, limit: number): void {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let size = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const container = childrenOf(next.value);
    size += container ? container.overhead : leafSize(next.value);
    if (size > limit) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `the request body expands to more than ${limit} bytes (server.body_limit); YAML aliases count each time they are used`,
        {
          reason: 'expanded_too_large',
          limit,
        },
      );
    }
    if (!container) continue;
    if (next.depth >= maxBodyDepth)
      throw validation(`the request body nests deeper than ${maxBodyDepth} levels`, { reason: 'too_deep', maxDepth: maxBodyDepth });
    for (const child of container.children) pending.push({ value: child, depth: next.depth + 1 });
  }
}

/**
 * One YAML document as a value; a syntax error is a 400 naming the line and column. At most
 * {@link maxYamlAliases} aliases, nesting to {@link maxBodyDepth}, and (when `limit` is given)
 * an expanded size of at most `limit` bytes.
 */
export function parseYamlDocument(text: string, limit?: number): unknown {
  let documents: unknown[];
  try {
    documents = yaml.loadAll(text, { maxAliases: maxYamlAliases, maxDepth: maxBodyDepth }).filter((document) => document !== null && document !== undefined);
  } catch (error) {
    const mark = (error as { mark?: { line?: number; column?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? 'cannot parse';
    throw validation(`invalid YAML: ${reason}`, { fields: { '(body)': reason }, line: (mark?.line ?? 0) + 1, column: (mark?.column ?? 0) + 1 });
  }
  if (documents.length !== 1) throw validation('send exactly one YAML document', { fields: { '(body)': `${documents.length} documents` } });
  if (limit !== undefined) assertBodyShape(documents[0], limit);
  return documents[0];
}

/**
 * Parses YAML request bodies (POST/PUT/PATCH with a YAML content type) into `request.body`, so
 * the route's schema, the authorization (which reads the body's name and namespace) and the
 * handler see the same value as for JSON.
 */
export function yamlBody(limit: number) {
  return async (context: AppContext, next: Next): Promise<void> => {
    if (['POST', 'PUT', 'PATCH'].includes(context.method) && context.request.is(yamlTypes)) {
      (context.request as { body?: unknown }).body = parseYamlDocument(await readText(context, limit), limit);
    }
    await next();
  };
}

/**
 * After the JSON parser: a JSON body nests at most {@link maxBodyDepth} levels (its size is already
 * capped by the parser's limit). YAML bodies were measured when parsed.
 */
export function bodyShape(limit: number) {
  return async (context: AppContext, next: Next): Promise<void> => {
    const body = (context.request as { body?: unknown }).body;
    if (body !== null && typeof body === 'object' && !context.request.is(yamlTypes)) assertBodyShape(body, limit);
    await next();
  };
}
