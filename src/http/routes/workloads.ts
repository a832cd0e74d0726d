import { z } from 'zod';
import { restartWorkload, scaleWorkload } from '../../kube/workloads.js';
import { suspendCronJob, triggerCronJob } from '../../kube/workloads-cronjobs.js';
import { audited } from '../audit-context.js';
import { parseWith } from '../validate.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import { clientOf, scaleBody, workloadTarget, type DeploymentsRouteDeps } from './deployments.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export type WorkloadsRouteDeps = DeploymentsRouteDeps;

const suspendBody = workloadTarget.extend({ suspend: z.boolean() });

interface ActionSpec {
  path: string;
  kind: string;
  summary: string;
  run: (context: AppContext) => Promise<unknown>;
}

/** StatefulSet scale/restart, DaemonSet restart, CronJob trigger/suspend. */
export function workloadRoutes(deps: WorkloadsRouteDeps): RouteSpec[] {
  const action = (spec: ActionSpec): RouteSpec =>
    route({
      method: 'POST',
      path: spec.path,
      permission: 'execute_write',
      resourceKind: spec.kind,
      summary: spec.summary,
      handler: async (context) => {
        context.body = await spec.run(context);
      },
    });
  /** A rolling restart (the `kubectl.kubernetes.io/restartedAt` template annotation). */
  const restartAction = (kind: 'statefulset' | 'daemonset'): RouteSpec =>
    action({
      path: `/api/${kind}/restart`,
      kind: `${kind}s`,
      summary: 'Rolling restart: {name, namespace, before: {restartedAt}, after: {restartedAt}}',
      run: (context) => {
        const body = parseWith(workloadTarget, context.request.body);
        const line = `kubectl rollout restart ${kind}/${body.name} -n ${body.namespace}`;
        return audited(deps, context, { resource: `${kind}/${body.name}`, command: line }, () => restartWorkload(clientOf(deps, context), `${kind}s`, body, new Date(deps.clock())));
      },
    });
  return [
    action({
      path: '/api/statefulset/scale',
      kind: 'statefulsets',
      summary: 'Set replicas: {name, namespace, before: {replicas}, after: {replicas}}',
      run: (context) => {
        const body = parseWith(scaleBody, context.request.body);
        const line = `kubectl scale statefulset/${body.name} --replicas=${body.replicas} -n ${body.namespace}`;
        return audited(deps, context, { resource: `statefulset/${body.name}`, command: line }, () => scaleWorkload(clientOf(deps, context), 'statefulsets', body, body.replicas));
      },
    }),
    restartAction('statefulset'),
    restartAction('daemonset'),
    action({
      path: '/api/cronjob/trigger',
      kind: 'cronjobs',
      summary: 'Run a CronJob now (Job owned by it): {name, namespace, jobName}',
      run: (context) => {
        const body = parseWith(workloadTarget, context.request.body);
        const line = `kubectl create job --from=cronjob/${body.name} -n ${body.namespace}`;
        return audited(deps, context, { resource: `cronjob/${body.name}`, command: line }, () => triggerCronJob(clientOf(deps, context), body));
      },
    }),
    action({
      path: '/api/cronjob/suspend',
      kind: 'cronjobs',
      summary: 'Suspend or resume the schedule: {name, namespace, before: {suspend}, after: {suspend}}',
      run: (context) => {
        const body = parseWith(suspendBody, context.request.body);
        const line = `kubectl patch cronjob/${body.name} -n ${body.namespace} -p '{"spec":{"suspend":${body.suspend}}}'`;
        return audited(deps, context, { resource: `cronjob/${body.name}`, command: line }, () => suspendCronJob(clientOf(deps, context), body, body.suspend));
      },
    }),
  ];
}
