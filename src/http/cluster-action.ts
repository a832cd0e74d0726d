import type { ZodType, z } from 'zod';
import type { KubeIdentityClient } from '../kube/clients.js';
import { audited, type AuditContextDeps } from './audit-context.js';
import { kubeOf } from './request-state.js';
import { changeReport } from './schemas/api-schemas.js';
import { route, type AppContext, type HttpMethod, type RouteSpec } from './types.js';
import type { Permission } from './permissions.js';

/** A cluster-changing route as a declaration: what it takes, the kubectl line it amounts to, the call. */
export interface ClusterActionSpec<B extends ZodType> {
  method?: HttpMethod;
  path: string;
  permission?: Permission;
  /** Resource kind guarded (plural, e.g. `deployments`). */
  kind: string;
  summary: string;
  body: B;
  response?: ZodType;
  /** The audited target, `<kind>/<name>`. */
  resource: (body: z.output<B>) => string;
  /** The equivalent kubectl line recorded in the audit's `details.command`. */
  line: (body: z.output<B>) => string;
  /** The call, with the caller's cluster client. */
  run: (client: KubeIdentityClient, body: z.output<B>, context: AppContext) => Promise<unknown>;
}

/**
 * parse → audit line → call with the caller's client → `{name, namespace, before, after}`: the
 * route sequence every cluster action shares (deployments, workloads, node cordon).
 */
export function clusterAction<B extends ZodType>(deps: AuditContextDeps, spec: ClusterActionSpec<B>): RouteSpec {
  return route({
    method: spec.method ?? 'POST',
    path: spec.path,
    permission: spec.permission ?? 'execute_write',
    cluster: true,
    resourceKind: spec.kind,
    summary: spec.summary,
    body: spec.body,
    response: spec.response ?? changeReport,
    errors: [404],
    handler: async (context, { body }) => {
      const target = { resource: spec.resource(body), command: spec.line(body) };
      context.body = await audited(deps, context, target, () => spec.run(kubeOf(context), body, context));
    },
  });
}
