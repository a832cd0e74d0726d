import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { maskObject } from '../../rbac/secret-masking.js';
import { secretKindApiVersion, secretKindOfResource, type SecretKind } from '../../rbac/secret-kinds.js';
import { seesEverything, type SecretVisibility } from '../../rbac/secret-visibility.js';
import type { RequestAttributes } from '../../rbac/request-attributes.js';
import type { KubeObject } from '../../kube/objects/resources.js';
import { statusJson } from './status.js';

/** How the answers of one request are masked: the kind its objects are, and what the caller may see of them. */
export interface SecretMask {
  kind: SecretKind;
  visibility: SecretVisibility;
  /** A watch: one JSON event per line, masked line by line as it streams. */
  watch: boolean;
}

/** A whole answer is buffered to be masked up to this size; a larger one is refused. */
const bufferLimit = 64 * 1024 * 1024;

/**
 * The mask of a request whose answers carry secret values (core Secrets, Pilothouse MCPServers) for a
 * caller who may not see all of them (src/rbac/secret-visibility.ts, the rule of the HTTP API); undefined
 * when the answer passes unchanged.
 */
export function secretMaskFor(attributes: RequestAttributes, visibility: SecretVisibility): SecretMask | undefined {
  if (seesEverything(visibility) || !attributes.isResourceRequest || attributes.subresource !== '') return undefined;
  const kind = secretKindOfResource(attributes.apiGroup, attributes.resource);
  return kind ? { kind, visibility, watch: attributes.verb === 'watch' } : undefined;
}

/** Request headers of a masked request: JSON only (no protobuf; tables stay JSON tables) and no compression. */
export function maskedRequestHeaders(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const accept = String(headers.accept ?? '');
  const rest = { ...headers };
  delete rest['accept-encoding'];
  return { ...rest, accept: /as=Table/i.test(accept) ? 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json' : 'application/json' };
}

function maskItem(item: unknown, mask: SecretMask): unknown {
  if (!item || typeof item !== 'object') return item;
  const original = item as KubeObject;
  // List items and table rows carry no kind of their own: the request's resource says what they are.
  const typed = { ...original, kind: mask.kind, apiVersion: secretKindApiVersion(mask.kind) };
  return { ...maskObject(typed, mask.visibility), kind: original.kind, apiVersion: original.apiVersion };
}

/** Masks an answer: one object, a list, a table (row objects), a watch event; a Status passes. */
export function maskDocument(value: unknown, mask: SecretMask): unknown {
  if (!value || typeof value !== 'object') return value;
  const document = value as Record<string, unknown>;
  if (document.kind === 'Status') return document;
  if (document.kind === 'Table' && Array.isArray(document.rows)) {
    return { ...document, rows: document.rows.map((row: Record<string, unknown>) => ({ ...row, object: maskItem(row.object, mask) })) };
  }
  if (Array.isArray(document.items)) return { ...document, items: document.items.map((item) => maskItem(item, mask)) };
  if (typeof document.type === 'string' && 'object' in document && !('metadata' in document))
    return { ...document, object: maskDocument(document.object, mask) };
  return maskItem(document, mask);
}

function refuse(response: ServerResponse): void {
  const body = statusJson({ code: 503, reason: 'ServiceUnavailable', message: 'the policy proxy could not mask the secret values of this answer' });
  response.writeHead(503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

function maskedText(text: string, mask: SecretMask): string | undefined {
  try {
    return JSON.stringify(maskDocument(JSON.parse(text), mask));
  } catch {
    return undefined;
  }
}

/** A watch: complete lines are masked and written as they arrive; a line that is no JSON is dropped. */
function streamEvents(answer: IncomingMessage, response: ServerResponse, mask: SecretMask): void {
  let pending = '';
  answer.setEncoding('utf8');
  answer.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const masked = line.trim() === '' ? undefined : maskedText(line, mask);
      if (masked !== undefined) response.write(`${masked}\n`);
    }
    if (pending.length > bufferLimit) response.destroy();
  });
  answer.on('end', () => {
    const masked = pending.trim() === '' ? undefined : maskedText(pending, mask);
    response.end(masked === undefined ? undefined : `${masked}\n`);
  });
  answer.on('error', () => response.destroy());
}

/** One answer: buffered whole, masked, and written with its new length; anything not JSON becomes a 503 Status. */
function bufferAnswer(answer: IncomingMessage, response: ServerResponse, headers: OutgoingHttpHeaders, mask: SecretMask): void {
  const chunks: Buffer[] = [];
  let size = 0;
  answer.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > bufferLimit) answer.destroy();
    else chunks.push(chunk);
  });
  answer.on('error', () => (response.headersSent ? response.destroy() : refuse(response)));
  answer.on('end', () => {
    const masked = size > bufferLimit ? undefined : maskedText(Buffer.concat(chunks).toString('utf8'), mask);
    if (masked === undefined) return refuse(response);
    response.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': Buffer.byteLength(masked) }).end(masked);
  });
}

/**
 * Writes the API server's answer to a masked request: secret values the caller may not see are
 * replaced as on the HTTP API (`******`, last-applied dropped), in objects, lists, tables and watch
 * events. A compressed answer, or one that is not JSON, is refused rather than passed.
 */
export function writeMaskedAnswer(answer: IncomingMessage, response: ServerResponse, headers: OutgoingHttpHeaders, mask: SecretMask): void {
  const plain = { ...headers };
  delete plain['content-length'];
  if (answer.headers['content-encoding'] !== undefined && answer.headers['content-encoding'] !== 'identity') {
    answer.resume();
    return refuse(response);
  }
  if (!mask.watch) return bufferAnswer(answer, response, plain, mask);
  response.writeHead(answer.statusCode ?? 502, plain);
  response.flushHeaders();
  streamEvents(answer, response, mask);
}
