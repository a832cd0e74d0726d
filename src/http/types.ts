import type { Context, Next } from 'koa';
import type { z, ZodType } from 'zod';
import type { Principal } from '../rbac/principal.js';
import type { KubeIdentityClient } from '../kube/clients.js';
import type { Permission } from './permissions.js';
import type { EndStream } from '../auth/sessions/session-streams.js';
import type { ClusterScope } from '../clusters/scope.js';
import type { ResourceType } from '../kube/discovery.js';

/** Per-request state set by the middlewares. */
export interface RequestState {
  requestId: string;
  principal?: Principal;
  /** The credential came from the browser's session cookie (src/http/session-cookie.ts), not a bearer header. */
  cookieSession?: boolean;
  /**
   * The cluster the request is about (`?cluster=`, default the home cluster; ADR 0035), set before authorization on
   * routes declared `cluster: true`. Audit rows of the request carry it.
   */
  clusterName?: string;
  /** The scope of that cluster (the home cluster's on routes that are not cluster-facing). */
  scope?: ClusterScope;
  /** The kind of a `resourceKind` route as its authorization resolved it (one discovery lookup per request). */
  resourceType?: { name: string; type: ResourceType };
  /** The caller's cluster client (their mapped identity), set once the caller is known. */
  kube?: () => KubeIdentityClient;
  /** Route template (e.g. `/api/k8s/:resource`) for metrics. */
  routeTemplate?: string;
  /** The permission the matched route declared. */
  permission?: Permission;
  /** Set by the policy on lists across all namespaces: the namespaces the caller may not see (absent when none). */
  hiddenNamespaces?: ReadonlySet<string>;
  /**
   * Registers a long-lived stream of this request with the caller's session (src/auth/sessions/session-streams.ts):
   * `end` runs when the session ends; call the returned function when the stream closes first.
   */
  holdStream?: (end: EndStream) => () => void;
}

export type AppContext = Context & { state: RequestState };
export type Handler = (context: AppContext, next: Next) => Promise<void>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The request as the route's schemas parsed it (fields absent from a schema are left out). */
export interface RouteInput<P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
}

/** Error statuses a route can answer besides 401/403 (authenticated routes), 400 (with input), 413 (with a body), 429, 431 (request line and headers past the limit), 500 and 503. */
export type ErrorStatus = 401 | 404 | 409 | 413 | 503;

/**
 * One route of the API, declared by schema: every route names its permission (the route table
 * test walks them all), its params, query, body and response schemas, and one handler that
 * receives the validated input. The OpenAPI document is generated from these declarations.
 */
export interface RouteSpec<P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType> {
  method: HttpMethod;
  path: string;
  permission: Permission;
  /** Resource kind guarded (for resource-level roles); `:resource` means the path parameter. */
  resourceKind?: string;
  /** The namespace the handler uses when the request names none (authorization decides on it too). */
  defaultNamespace?: string;
  /** The Kubernetes subresource the route amounts to (`log`, `exec`, `portforward`). */
  subresource?: string;
  /** The route is about one cluster: it takes `?cluster=NAME` (components/parameters/cluster; ADR 0035). */
  cluster?: boolean;
  /** A list of `resourceKind` across all namespaces whatever `name` says (pods on a node). */
  listsAllNamespaces?: boolean;
  /** The route is a server-side apply of the object it names: decided as `patch` and `create` of it (RequestAttributes.apply). */
  serverSideApply?: boolean;
  /** Short description for the OpenAPI document. */
  summary: string;
  /** Path parameters (zod object); validated before the handler runs. */
  params?: P;
  /** Query string (zod object of string fields); validated before the handler runs. */
  query?: Q;
  /** JSON request body; validated before the handler runs. */
  body?: B;
  /** Success response body (JSON unless `produces` says otherwise). */
  response?: ZodType;
  /** Success status (default 200). */
  status?: number;
  /** Response content type when not JSON (e.g. `text/plain`, `text/event-stream`); several when it depends on the object (report files). */
  produces?: string | readonly string[];
  /** Server-sent events of a `text/event-stream` answer: event name → data schema. */
  events?: Record<string, ZodType>;
  /** Error statuses this route answers besides the ones every route of its kind can. */
  errors?: ErrorStatus[];
  /** A public route's own credential check (Alertmanager's bearer token): runs before the input is validated, so a bad credential is 401 whatever the body. */
  authenticate?(context: AppContext): Promise<void>;
  /** Runs after authentication, authorization and validation. */
  handler(context: AppContext, input: RouteInput<P, Q, B>, next: Next): Promise<void>;
}

/** Helper giving route modules a typed way to declare routes (the handler's input is inferred from the schemas). */
export function route<P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType>(spec: RouteSpec<P, Q, B>): RouteSpec {
  return spec as unknown as RouteSpec;
}
