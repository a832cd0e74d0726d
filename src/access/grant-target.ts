import type { AppContext, RouteSpec } from '../http/types.js';

/** A string field of the request: path parameter, then query, then JSON body. */
function requestField(context: AppContext, field: string): string | undefined {
  const body = context.request.body as Record<string, unknown> | undefined;
  const candidates = [context.params?.[field], context.query[field], body && typeof body === 'object' ? body[field] : undefined];
  return candidates.find((value): value is string => typeof value === 'string' && value !== '');
}

/**
 * What a guarded request targets, for the grant check: the route's resource kind (`:resource`
 * resolved to the path parameter) and the namespace from the path, query or JSON body.
 */
export function grantTarget(context: AppContext, spec: RouteSpec): { resourceKind?: string; namespace?: string } {
  const resourceKind = spec.resourceKind === ':resource' ? requestField(context, 'resource') : spec.resourceKind;
  return { resourceKind, namespace: requestField(context, 'namespace') };
}
