import { z } from 'zod';
import { deploymentHistory, rollbackDeployment, setPaused } from '../../kube/workloads/deployments.js';
import { restartWorkload, scaleWorkload } from '../../kube/workloads/workloads.js';
import { itemsOf, scaleBody, workloadTarget, workloadTargetBody } from '../schemas/api-schemas.js';
import { clusterAction } from '../cluster-action.js';
import { kubeOf } from '../request-state.js';
import { route, type RouteSpec } from '../types.js';
import type { AuditContextDeps } from '../audit-context.js';
import type { Clock } from '../../clock.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface DeploymentsRouteDeps extends AuditContextDeps {
  /** Stamps restarts (`kubectl.kubernetes.io/restartedAt`). */
  clock: Clock;
}

const rollbackBody = workloadTarget.extend({ revision: z.number().int().min(0).optional() }).meta({ id: 'DeploymentRollbackBody' });
const revisionItem = z
  .object({
    revision: z.number().int(),
    images: z.array(z.string()),
    createdAt: z.string().nullable(),
    current: z.boolean(),
    changeCause: z.string().nullable(),
  })
  .meta({ id: 'RevisionItem' });

/** Deployments: scale, restart, rollback, pause, resume, history. Responses: `{name, namespace, before, after}`. */
export function deploymentRoutes(deps: DeploymentsRouteDeps): RouteSpec[] {
  const base = { kind: 'deployments', resource: (body: { name: string }) => `deployment/${body.name}` };
  return [
    clusterAction(deps, {
      ...base,
      path: '/api/deployment/scale',
      summary: 'Set replicas: {before: {replicas}, after: {replicas}}',
      body: scaleBody,
      line: (body) => `kubectl scale deployment/${body.name} --replicas=${body.replicas} -n ${body.namespace}`,
      run: (client, body) => scaleWorkload(client, 'deployments', body, body.replicas),
    }),
    clusterAction(deps, {
      ...base,
      path: '/api/deployment/restart',
      summary: 'Rolling restart: {before: {restartedAt}, after: {restartedAt}}',
      body: workloadTargetBody,
      line: (body) => `kubectl rollout restart deployment/${body.name} -n ${body.namespace}`,
      run: (client, body) => restartWorkload(client, 'deployments', body, new Date(deps.clock())),
    }),
    clusterAction(deps, {
      ...base,
      path: '/api/deployment/rollback',
      summary: 'Roll back to a revision (0/absent = previous): {before: {revision, images}, after: {revision, images}}',
      body: rollbackBody,
      line: (body) => `kubectl rollout undo deployment/${body.name}${body.revision ? ` --to-revision=${body.revision}` : ''} -n ${body.namespace}`,
      run: (client, body) => rollbackDeployment(client, body, body.revision ?? 0),
    }),
    ...(['pause', 'resume'] as const).map((verb) =>
      clusterAction(deps, {
        ...base,
        path: `/api/deployment/${verb}`,
        summary: `${verb === 'pause' ? 'Pause' : 'Resume'} rollouts: {before: {paused}, after: {paused}}`,
        body: workloadTargetBody,
        line: (body) => `kubectl rollout ${verb} deployment/${body.name} -n ${body.namespace}`,
        run: (client, body) => setPaused(client, body, verb === 'pause'),
      }),
    ),
    route({
      method: 'GET',
      path: '/api/deployment/history',
      permission: 'view',
      cluster: true,
      resourceKind: 'deployments',
      summary: 'Revision history: {items: [{revision, images, createdAt, current, changeCause}]}',
      query: workloadTarget,
      response: itemsOf(revisionItem),
      errors: [404],
      handler: async (context, { query }) => {
        context.body = { items: await deploymentHistory(kubeOf(context), query) };
      },
    }),
  ];
}
