import { z } from 'zod';
import { restartWorkload, scaleWorkload } from '../../kube/workloads/workloads.js';
import { suspendCronJob, triggerCronJob } from '../../kube/workloads/workloads-cronjobs.js';
import { scaleBody, workloadTarget, workloadTargetBody } from '../schemas/api-schemas.js';
import { clusterAction } from '../cluster-action.js';
import type { RouteSpec } from '../types.js';
import type { AuditContextDeps } from '../audit-context.js';
import type { Clock } from '../../clock.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface WorkloadsRouteDeps extends AuditContextDeps {
  /** Stamps restarts (`kubectl.kubernetes.io/restartedAt`). */
  clock: Clock;
}

const suspendBody = workloadTarget.extend({ suspend: z.boolean() }).meta({ id: 'CronJobSuspendBody' });
const triggered = z.object({ name: z.string(), namespace: z.string(), jobName: z.string() }).meta({ id: 'CronJobTriggered' });

/** StatefulSet scale/restart, DaemonSet restart, CronJob trigger/suspend. */
export function workloadRoutes(deps: WorkloadsRouteDeps): RouteSpec[] {
  /** A rolling restart (the `kubectl.kubernetes.io/restartedAt` template annotation). */
  const restartAction = (kind: 'statefulset' | 'daemonset'): RouteSpec =>
    clusterAction(deps, {
      path: `/api/${kind}/restart`,
      kind: `${kind}s`,
      summary: 'Rolling restart: {name, namespace, before: {restartedAt}, after: {restartedAt}}',
      body: workloadTargetBody,
      resource: (body) => `${kind}/${body.name}`,
      line: (body) => `kubectl rollout restart ${kind}/${body.name} -n ${body.namespace}`,
      run: (client, body) => restartWorkload(client, `${kind}s`, body, new Date(deps.clock())),
    });
  return [
    clusterAction(deps, {
      path: '/api/statefulset/scale',
      kind: 'statefulsets',
      summary: 'Set replicas: {name, namespace, before: {replicas}, after: {replicas}}',
      body: scaleBody,
      resource: (body) => `statefulset/${body.name}`,
      line: (body) => `kubectl scale statefulset/${body.name} --replicas=${body.replicas} -n ${body.namespace}`,
      run: (client, body) => scaleWorkload(client, 'statefulsets', body, body.replicas),
    }),
    restartAction('statefulset'),
    restartAction('daemonset'),
    clusterAction(deps, {
      path: '/api/cronjob/trigger',
      kind: 'cronjobs',
      summary: 'Run a CronJob now (Job owned by it): {name, namespace, jobName}',
      body: workloadTargetBody,
      response: triggered,
      resource: (body) => `cronjob/${body.name}`,
      line: (body) => `kubectl create job --from=cronjob/${body.name} -n ${body.namespace}`,
      run: (client, body) => triggerCronJob(client, body),
    }),
    clusterAction(deps, {
      path: '/api/cronjob/suspend',
      kind: 'cronjobs',
      summary: 'Suspend or resume the schedule: {name, namespace, before: {suspend}, after: {suspend}}',
      body: suspendBody,
      resource: (body) => `cronjob/${body.name}`,
      line: (body) => `kubectl patch cronjob/${body.name} -n ${body.namespace} -p '{"spec":{"suspend":${body.suspend}}}'`,
      run: (client, body) => suspendCronJob(client, body, body.suspend),
    }),
  ];
}
