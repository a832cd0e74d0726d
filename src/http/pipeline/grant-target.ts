import { requestField } from './request-field.js';
import type { AppContext, RouteSpec } from '../types.js';

/**
 * What a guarded request targets, for the grant check: the route's resource kind (`:resource`
 * resolved to the path parameter) and the namespace from the path, query or JSON body.
 */
export function grantTarget(context: AppContext, spec: RouteSpec): { resourceKind?: string; namespace?: string } {
  const resourceKind = spec.resourceKind === ':resource' ? requestField(context, 'resource') : spec.resourceKind;
  return { resourceKind, namespace: requestField(context, 'namespace') ?? spec.defaultNamespace };
}
