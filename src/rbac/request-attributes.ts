/**
 * What one Kubernetes API request does, in the API server's own terms (k8s.io/apiserver
 * `authorizer.Attributes`): the input of every authorization decision of Pilothouse.
 */
export interface RequestAttributes {
  /**
   * Kubernetes verb of a resource request: get, list, watch, create, update, patch, delete,
   * deletecollection (exec/attach/portforward/proxy: `create` for POST, `get` for GET, like the
   * API server). Lowercase HTTP method for non-resource URLs.
   */
  verb: string;
  isResourceRequest: boolean;
  /** The URL path (non-resource URLs are decided by it: /version, /api, /apis, /openapi/..., /healthz). */
  path: string;
  /** '' for the core group. */
  apiGroup: string;
  apiVersion: string;
  /** Plural, lowercase. */
  resource: string;
  /** '' when none (log, exec, attach, portforward, status, scale, proxy, ...). */
  subresource: string;
  /** '' for cluster-scoped or all-namespace requests. */
  namespace: string;
  /** '' for collections. */
  name: string;
  /**
   * Query `dryRun=All`. Only writes of the resources in src/rbac/dry-run-table.ts persist nothing
   * with it (`honoursDryRun`); elsewhere the API server ignores it.
   */
  dryRun: boolean;
  /**
   * A server-side apply (a PATCH with `application/apply-patch+…`, or the apply route): it creates the object when
   * it does not exist, so the policy decides it as both `patch` and `create` of that name (`verb` says `patch`).
   */
  apply?: boolean;
  /**
   * Why the path cannot be decided (an empty, `.` or `..` segment): the API server would read it
   * differently, or not serve it. The policy refuses such a request.
   */
  invalid?: string;
}
