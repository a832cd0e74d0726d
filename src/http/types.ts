import type { Context, Next } from 'koa';
import type { ZodType } from 'zod';
import type { Principal } from '../rbac/principal.js';
import type { Permission } from './permissions.js';

/** Per-request state set by the middlewares. */
export interface RequestState {
  requestId: string;
  principal?: Principal;
  /** Route template (e.g. `/api/k8s/:resource`) for metrics. */
  routeTemplate?: string;
  /** The permission the matched route declared. */
  permission?: Permission;
  /** Set by the policy on lists across all namespaces: false for namespaces the caller may not see. */
  namespaceFilter?: (namespace: string | undefined) => boolean;
}

export type AppContext = Context & { state: RequestState };
export type Handler = (context: AppContext, next: Next) => Promise<void>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route of the API: every route names its permission, so no route can exist
 * without one (the route table test walks them all).
 */
export interface RouteSpec {
  method: HttpMethod;
  path: string;
  permission: Permission;
  /** Resource kind guarded (for resource-level roles); `:resource` means the path parameter. */
  resourceKind?: string;
  /** The namespace the handler uses when the request names none (authorization decides on it too). */
  defaultNamespace?: string;
  /** The Kubernetes subresource the route amounts to (`log`, `exec`, `portforward`). */
  subresource?: string;
  /** A list of `resourceKind` across all namespaces whatever `name` says (pods on a node). */
  listsAllNamespaces?: boolean;
  handler: Handler;
  /** Short description for the OpenAPI document. */
  summary: string;
  /** Request body schema (zod), used for the OpenAPI document. */
  body?: ZodType;
  /** Query schema (zod object), used for the OpenAPI document. */
  query?: ZodType;
  /** Response content type when not JSON (e.g. `text/plain`, `text/event-stream`). */
  produces?: string;
}

/** Helper giving route modules a typed way to declare routes. */
export function route(spec: RouteSpec): RouteSpec {
  return spec;
}
