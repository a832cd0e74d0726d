import { z } from 'zod';
import { deploymentHistory, rollbackDeployment, setPaused } from '../../kube/deployments.js';
import { restartWorkload, scaleWorkload } from '../../kube/workloads.js';
import { audited, type AuditContextDeps } from '../audit-context.js';
import { namespaceSchema, objectNameSchema, parseWith } from '../validate.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import type { KubeIdentityClient } from '../../kube/clients.js';
import type { IdentityResolver } from '../../rbac/identities.js';
import type { Clock } from '../../clock.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface DeploymentsRouteDeps extends AuditContextDeps {
  identities: IdentityResolver;
  /** Stamps restarts (`kubectl.kubernetes.io/restartedAt`). */
  clock: Clock;
}

export const workloadTarget = z.object({ namespace: namespaceSchema, name: objectNameSchema });
export const scaleBody = workloadTarget.extend({ replicas: z.number().int().min(0).max(10_000) });
const rollbackBody = workloadTarget.extend({ revision: z.number().int().min(0).optional() });

/** The request's cluster client. */
export function clientOf(deps: DeploymentsRouteDeps, context: AppContext): KubeIdentityClient {
  return deps.identities.clientFor(context.state.principal);
}

/** Deployments: scale, restart, rollback, pause, resume, history. Responses: `{name, namespace, before, after}`. */
export function deploymentRoutes(deps: DeploymentsRouteDeps): RouteSpec[] {
  const action = (path: string, summary: string, handler: (context: AppContext) => Promise<unknown>): RouteSpec =>
    route({
      method: 'POST',
      path: `/api/deployment/${path}`,
      permission: 'execute_write',
      resourceKind: 'deployments',
      summary,
      handler: async (context) => {
        context.body = await handler(context);
      },
    });
  return [
    action('scale', 'Set replicas: {before: {replicas}, after: {replicas}}', (context) => {
      const body = parseWith(scaleBody, context.request.body);
      const line = `kubectl scale deployment/${body.name} --replicas=${body.replicas} -n ${body.namespace}`;
      return audited(deps, context, { resource: `deployment/${body.name}`, command: line }, () => scaleWorkload(clientOf(deps, context), 'deployments', body, body.replicas));
    }),
    action('restart', 'Rolling restart: {before: {restartedAt}, after: {restartedAt}}', (context) => {
      const body = parseWith(workloadTarget, context.request.body);
      const line = `kubectl rollout restart deployment/${body.name} -n ${body.namespace}`;
      return audited(deps, context, { resource: `deployment/${body.name}`, command: line }, () => restartWorkload(clientOf(deps, context), 'deployments', body, new Date(deps.clock())));
    }),
    action('rollback', 'Roll back to a revision (0/absent = previous): {before: {revision, images}, after: {revision, images}}', (context) => {
      const body = parseWith(rollbackBody, context.request.body);
      const revision = body.revision ?? 0;
      const line = `kubectl rollout undo deployment/${body.name}${revision ? ` --to-revision=${revision}` : ''} -n ${body.namespace}`;
      return audited(deps, context, { resource: `deployment/${body.name}`, command: line }, () => rollbackDeployment(clientOf(deps, context), body, revision));
    }),
    action('pause', 'Pause rollouts: {before: {paused}, after: {paused}}', (context) => {
      const body = parseWith(workloadTarget, context.request.body);
      const line = `kubectl rollout pause deployment/${body.name} -n ${body.namespace}`;
      return audited(deps, context, { resource: `deployment/${body.name}`, command: line }, () => setPaused(clientOf(deps, context), body, true));
    }),
    action('resume', 'Resume rollouts: {before: {paused}, after: {paused}}', (context) => {
      const body = parseWith(workloadTarget, context.request.body);
      const line = `kubectl rollout resume deployment/${body.name} -n ${body.namespace}`;
      return audited(deps, context, { resource: `deployment/${body.name}`, command: line }, () => setPaused(clientOf(deps, context), body, false));
    }),
    route({
      method: 'GET',
      path: '/api/deployment/history',
      permission: 'view',
      resourceKind: 'deployments',
      summary: 'Revision history: {items: [{revision, images, createdAt, current, changeCause}]}',
      handler: async (context) => {
        const query = parseWith(workloadTarget, context.query, 'query');
        context.body = { items: await deploymentHistory(clientOf(deps, context), query) };
      },
    }),
  ];
}
