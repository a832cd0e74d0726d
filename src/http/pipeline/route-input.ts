import type { RouteInput, RouteSpec, AppContext } from '../types.js';
import { parseWith } from '../schemas/validate.js';

/** Validates the request against the route's declared schemas (400 VALIDATION_ERROR naming the field). */
export function routeInput(context: AppContext, spec: RouteSpec): RouteInput {
  return {
    params: spec.params ? parseWith(spec.params, { ...context.params }, 'path') : { ...context.params },
    query: spec.query ? parseWith(spec.query, { ...context.query }, 'query') : {},
    body: spec.body ? parseWith(spec.body, context.request.body) : undefined,
  };
}
