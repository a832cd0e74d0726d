import type { RequestAttributes } from '../../rbac/request-attributes.js';
import { resourceRequestAttributes } from '../../rbac/resource-request.js';
import type { HttpMethod, RouteSpec } from '../types.js';

/** What a request on a resource route names, besides the route itself. */
export interface RouteTarget {
  /** The resource (plural, lowercase) and its API group and version, resolved through discovery. */
  resource: string;
  apiGroup: string;
  /** Default `v1` (kinds the cluster does not serve). */
  apiVersion?: string;
  /** The object the route acts on ('' for collections). */
  name: string;
  /** '' for cluster-scoped kinds and lists across all namespaces. */
  namespace: string;
}

/**
 * The Kubernetes verb of a route. It is about one object when the request names one (a `:name`
 * path parameter, or `name` in the query or JSON body): GET of a collection is `list`, GET of an
 * object (or its logs, yaml, describe) `get`, DELETE `delete`, PATCH `patch`, PUT `update`, POST on
 * an object (scale, restart, exec, cordon, drain...) `update`, POST on a collection `create`.
 */
export function verbFor(method: HttpMethod, onObject: boolean): string {
  if (method === 'GET') return onObject ? 'get' : 'list';
  if (method === 'DELETE') return 'delete';
  if (method === 'PATCH') return 'patch';
  if (method === 'PUT') return 'update';
  return onObject ? 'update' : 'create';
}

/**
 * The request attributes a resource route amounts to: what the one policy decides on. They are
 * built by the same function the policy proxy's reading of a URL goes through
 * (`resourceRequestAttributes`), so a route and the kubectl call it stands for are decided alike:
 * `DELETE /api/k8s/namespaces/x` is `delete namespaces x` in namespace x, as
 * `kubectl delete namespace x` is. A server-side apply route (`serverSideApply`) is the PATCH
 * `kubectl apply --server-side` sends, decided as `patch` and `create` of the object (RequestAttributes.apply).
 */
export function routeAttributes(
  spec: Pick<RouteSpec, 'method' | 'subresource' | 'listsAllNamespaces' | 'serverSideApply'>,
  target: RouteTarget,
): RequestAttributes {
  const name = spec.listsAllNamespaces ? '' : target.name;
  return resourceRequestAttributes({
    verb: spec.serverSideApply ? 'patch' : verbFor(spec.method, name !== ''),
    apply: spec.serverSideApply,
    apiGroup: target.apiGroup,
    apiVersion: target.apiVersion,
    resource: target.resource,
    subresource: spec.subresource,
    namespace: spec.listsAllNamespaces ? '' : target.namespace,
    name,
  });
}
