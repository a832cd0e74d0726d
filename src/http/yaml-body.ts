import * as yaml from 'js-yaml';
import type { Next } from 'koa';
import { AppError, validation } from '../errors.js';
import type { AppContext } from './types.js';

/** Content types read as YAML request bodies (the apply route takes manifests as YAML or JSON). */
export const yamlTypes = ['application/yaml', 'application/x-yaml', 'text/yaml'];

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

/** One YAML document as a value; a syntax error is a 400 naming the line and column. */
export function parseYamlDocument(text: string): unknown {
  let documents: unknown[];
  try {
    documents = yaml.loadAll(text).filter((document) => document !== null && document !== undefined);
  } catch (error) {
    const mark = (error as { mark?: { line?: number; column?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? 'cannot parse';
    throw validation(`invalid YAML: ${reason}`, { fields: { '(body)': reason }, line: (mark?.line ?? 0) + 1, column: (mark?.column ?? 0) + 1 });
  }
  if (documents.length !== 1) throw validation('send exactly one YAML document', { fields: { '(body)': `${documents.length} documents` } });
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
      (context.request as { body?: unknown }).body = parseYamlDocument(await readText(context, limit));
    }
    await next();
  };
}
