import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { DrainEvent, DrainJob, DrainJobs } from '../../kube/nodes/drain-jobs.js';
import { getNode, podsOnNode, setUnschedulable } from '../../kube/nodes/nodes.js';
import { audited, type AuditContextDeps } from '../audit-context.js';
import { startEventStream } from '../event-stream.js';
import { objectNameSchema } from '../schemas/validate.js';
import { listed, listOf, resourceItem } from '../schemas/api-schemas.js';
import { clusterAction } from '../cluster-action.js';
import { kubeOf, resourceTypeOf, scopeOf } from '../request-state.js';
import type { ClusterScopes } from '../../clusters/scope.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import { visibleItems } from '../visible-items.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface NodesRouteDeps extends AuditContextDeps {
  drains: DrainJobs;
  /** A drain's progress is read on the cluster it runs on, whatever the request's `?cluster=` says. */
  clusters: Pick<ClusterScopes, 'get' | 'homeName'>;
}

const nodeTarget = z.object({ name: objectNameSchema });
const nodeBody = nodeTarget.meta({ id: 'NodeBody' });
const drainBody = nodeTarget
  .extend({
    ignoreDaemonSets: z.boolean().default(false),
    deleteLocalData: z.boolean().default(false),
    force: z.boolean().default(false),
    gracePeriodSeconds: z.number().int().min(0).max(86_400).optional(),
    timeoutSeconds: z.number().int().min(1).max(3600).default(300),
  })
  .meta({ id: 'NodeDrainBody' });

function drainLine(body: z.infer<typeof drainBody>): string {
  const flags = [
    body.ignoreDaemonSets ? '--ignore-daemonsets' : '',
    body.deleteLocalData ? '--delete-emptydir-data' : '',
    body.force ? '--force' : '',
    body.gracePeriodSeconds !== undefined ? `--grace-period=${body.gracePeriodSeconds}` : '',
    `--timeout=${body.timeoutSeconds}s`,
  ];
  return ['kubectl drain', body.name, ...flags.filter(Boolean)].join(' ');
}

type Visible = (namespace: string) => boolean;

/** A drain event without the pods of namespaces the caller may not see (undefined: nothing left to send). */
function visibleEvent(event: DrainEvent, visible: Visible): DrainEvent | undefined {
  if (event.type === 'pod') return visible(event.namespace) ? event : undefined;
  if (event.type !== 'result') return event;
  const keep = <T extends { namespace: string }>(pods: T[]): T[] => pods.filter((pod) => visible(pod.namespace));
  return { ...event, failed: keep(event.failed), refused: keep(event.refused), skipped: keep(event.skipped) };
}

/** Streams a drain's events (past ones first) until its result (naming the drain's cluster), showing only pods the caller may see. */
function streamDrain(context: AppContext, job: DrainJob, drain: { cluster: string; visible: Visible }): void {
  const stream = startEventStream(context);
  const send = (event: DrainEvent): void => {
    const shown = visibleEvent(event, drain.visible);
    if (shown) {
      const { type, ...data } = shown;
      stream.send(type, type === 'result' ? { ...data, cluster: drain.cluster } : data);
    }
    if (event.type === 'result') stream.end();
  };
  for (const event of job.events) send(event);
  if (job.done) return;
  const unsubscribe = job.subscribe(send);
  stream.signal.addEventListener('abort', unsubscribe);
}

/**
 * Which namespaces' pods the caller may see in a drain's progress: the policy's answer for a pod list on the
 * drain's cluster (none when that cluster is gone).
 */
async function podVisibility(deps: NodesRouteDeps, context: AppContext, cluster: string): Promise<Visible> {
  const scope = deps.clusters.get(cluster);
  if (!scope) return () => false;
  const hidden = await scope.policy.hiddenNamespaces(context.state.principal, { apiGroup: '', resource: 'pods' }, 'list');
  return (namespace) => !hidden.all && !hidden.namespaces.has(namespace);
}

const nodeChange = z
  .object({ name: z.string(), before: z.object({ unschedulable: z.boolean() }), after: z.object({ unschedulable: z.boolean() }) })
  .meta({ id: 'NodeChange' });
const drainPod = z.object({ namespace: z.string(), name: z.string(), reason: z.string().optional() }).catchall(z.unknown());
const drainEvents = {
  cordoned: z.object({ node: z.string() }),
  pod: drainPod.extend({ status: z.enum(['evicted', 'failed', 'skipped']) }),
  result: z.object({
    node: z.string(),
    status: z.enum(['completed', 'failed', 'refused']),
    evicted: z.number().int(),
    failed: z.array(drainPod),
    refused: z.array(drainPod),
    skipped: z.array(drainPod),
    message: z.string().optional(),
    /** The cluster the drain ran on (ADR 0035). */
    cluster: z.string(),
  }),
};

/** Nodes (docs/adr/0005-cluster-operations-streams.md): cordon, uncordon, drain (202 + SSE progress), pods on a node. */
export function nodeRoutes(deps: NodesRouteDeps): RouteSpec[] {
  const drains = deps.drains;
  const cordon = (verb: 'cordon' | 'uncordon'): RouteSpec =>
    clusterAction(deps, {
      path: `/api/node/${verb}`,
      kind: 'nodes',
      summary: `kubectl ${verb}: {name, before: {unschedulable}, after: {unschedulable}}`,
      body: nodeBody,
      response: nodeChange,
      resource: (body) => `node/${body.name}`,
      line: (body) => `kubectl ${verb} ${body.name}`,
      run: (client, body) => setUnschedulable(client, body.name, verb === 'cordon'),
    });
  return [
    cordon('cordon'),
    cordon('uncordon'),
    route({
      method: 'POST',
      path: '/api/node/drain',
      permission: 'execute_write',
      cluster: true,
      resourceKind: 'nodes',
      summary: 'Start a drain in the background: 202 {id}; progress at GET /api/node/drain/{id}',
      body: drainBody,
      status: 202,
      response: z.object({ id: z.string(), node: z.string() }).meta({ id: 'DrainStarted' }),
      errors: [404],
      handler: async (context, { body }) => {
        const identity = kubeOf(context);
        const owner = { node: body.name, requester: context.state.principal?.username ?? 'unknown', cluster: scopeOf(context).name };
        const job = await audited(deps, context, { resource: `node/${body.name}`, command: drainLine(body) }, async () => {
          await getNode(identity, body.name);
          return drains.start(identity, owner, body);
        });
        context.status = 202;
        context.body = { id: job.id, node: body.name };
      },
    }),
    route({
      method: 'GET',
      path: '/api/node/drain/:id',
      permission: 'view',
      cluster: true,
      resourceKind: 'nodes',
      summary:
        'SSE progress of a drain (found on whichever cluster it runs, whatever ?cluster= says): events cordoned, pod {namespace, name, status, reason?}, result (with cluster)',
      params: z.object({ id: z.string().min(1).max(128) }),
      produces: 'text/event-stream',
      events: drainEvents,
      errors: [404],
      handler: async (context, { params }) => {
        const job = await drains.get(params.id);
        const principal = context.state.principal;
        if (!job || (principal?.role !== 'admin' && principal?.username !== job.requester)) throw notFound(`drain ${params.id} not found`);
        const cluster = job.cluster ?? deps.clusters.homeName;
        streamDrain(context, job, { cluster, visible: await podVisibility(deps, context, cluster) });
      },
    }),
    route({
      method: 'GET',
      path: '/api/nodes/:name/pods',
      permission: 'view',
      cluster: true,
      resourceKind: 'pods',
      listsAllNamespaces: true,
      summary: 'Pods on a node (pod list items): {items, total}',
      params: nodeTarget,
      response: listOf(resourceItem),
      errors: [404],
      handler: async (context, { params }) => {
        const identity = kubeOf(context);
        await getNode(identity, params.name);
        context.body = listed(visibleItems(context, await podsOnNode(scopeOf(context).caches, identity, await resourceTypeOf(context, 'pods'), params.name)));
      },
    }),
  ];
}
