import { validation } from '../../errors.js';
import type { AppContext } from '../types.js';

const bodyMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A Kubernetes object (the apply route's body) names its object in `metadata`, and only there. */
function metadataOf(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const metadata = body.metadata;
  const isObject = typeof body.apiVersion === 'string' && typeof body.kind === 'string';
  return isObject && metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>) : undefined;
}

function bodyField(context: AppContext, field: string): string | undefined {
  const body = context.request.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return undefined;
  const metadata = field === 'name' || field === 'namespace' ? metadataOf(body) : undefined;
  // A top-level `name`/`namespace` beside `metadata` is no part of the object written: the decision never reads it.
  return metadata ? stringOf(metadata[field]) : stringOf(body[field]);
}

/**
 * A string field of the request as the handler will read it, for authorization decisions
 * (access grants, resource-level roles): the path parameter, else the JSON body for
 * POST/PUT/PATCH, else the query string for GET/DELETE. A field given in two places with
 * different values, or in the query of a request with a body, is refused (400): otherwise the
 * decision could be taken on one namespace while the handler acts on another.
 */
export function requestField(context: AppContext, field: string): string | undefined {
  const fromPath = stringOf(context.params?.[field]);
  const fromQuery = stringOf(context.query[field]);
  const fromBody = bodyField(context, field);
  const withBody = bodyMethods.has(context.method);
  if (withBody && fromQuery !== undefined)
    throw validation(`${field} belongs in the JSON body, not the query string`, { fields: { [field]: 'given in the query string' } });
  const read = withBody ? fromBody : fromQuery;
  if (fromPath !== undefined && read !== undefined && read !== fromPath)
    throw validation(`${field} given twice with different values`, { fields: { [field]: 'conflicting values' } });
  return fromPath ?? read;
}
