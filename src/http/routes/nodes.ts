import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { DrainEvent, DrainJob, DrainJobs } from '../../kube/drain-jobs.js';
import { getNode, podsOnNode, setUnschedulable } from '../../kube/nodes.js';
import type { KubeIdentityClient } from '../../kube/clients.js';
import { audited, type AuditContextDeps } from '../audit-context.js';
import { startEventStream } from '../event-stream.js';
import { objectNameSchema, parseWith } from '../validate.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import { visibleItems } from '../visible-items.js';
import type { CacheManager } from '../../kube/cache-manager.js';
import type { Discovery } from '../../kube/discovery.js';
import type { IdentityResolver } from '../../rbac/identities.js';
import type { PolicyEngine } from '../../rbac/policy-engine.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface NodesRouteDeps extends AuditContextDeps {
  caches: CacheManager;
  discovery: Discovery;
  identities: IdentityResolver;
  drains: DrainJobs;
  policy: PolicyEngine;
}

const nodeBody = z.object({ name: objectNameSchema });
const drainBody = nodeBody.extend({
  ignoreDaemonSets: z.boolean().default(false),
  deleteLocalData: z.boolean().default(false),
  force: z.boolean().default(false),
  gracePeriodSeconds: z.number().int().min(0).max(86_400).optional(),
  timeoutSeconds: z.number().int().min(1).max(3600).default(300),
});

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

/** Streams a drain's events (past ones first) until its result, showing only pods the caller may see. */
function streamDrain(context: AppContext, job: DrainJob, visible: Visible): void {
  const stream = startEventStream(context);
  const send = (event: DrainEvent): void => {
    const shown = visibleEvent(event, visible);
    if (shown) {
      const { type, ...data } = shown;
      stream.send(type, data);
    }
    if (event.type === 'result') stream.end();
  };
  for (const event of job.events) send(event);
  if (job.done) return;
  const unsubscribe = job.subscribe(send);
  stream.signal.addEventListener('abort', unsubscribe);
}

/** Which namespaces' pods the caller may see in a drain's progress (the policy's answer for a pod list). */
async function podVisibility(deps: NodesRouteDeps, context: AppContext): Promise<Visible> {
  const hidden = await deps.policy.hiddenNamespaces(context.state.principal, { apiGroup: '', resource: 'pods' }, 'list');
  return (namespace) => !hidden.all && !hidden.namespaces.has(namespace);
}

/** Nodes (docs/adr/0005-cluster-operations-streams.md): cordon, uncordon, drain (202 + SSE progress), pods on a node. */
export function nodeRoutes(deps: NodesRouteDeps): RouteSpec[] {
  const drains = deps.drains;
  const client = (context: AppContext): KubeIdentityClient => deps.identities.clientFor(context.state.principal);
  const cordon = (verb: 'cordon' | 'uncordon'): RouteSpec =>
    route({
      method: 'POST',
      path: `/api/node/${verb}`,
      permission: 'execute_write',
      resourceKind: 'nodes',
      summary: `kubectl ${verb}: {name, before: {unschedulable}, after: {unschedulable}}`,
      handler: async (context) => {
        const { name } = parseWith(nodeBody, context.request.body);
        context.body = await audited(deps, context, { resource: `node/${name}`, command: `kubectl ${verb} ${name}` }, () => setUnschedulable(client(context), name, verb === 'cordon'));
      },
    });
  return [
    cordon('cordon'),
    cordon('uncordon'),
    route({
      method: 'POST',
      path: '/api/node/drain',
      permission: 'execute_write',
      resourceKind: 'nodes',
      summary: 'Start a drain in the background: 202 {id}; progress at GET /api/node/drain/{id}',
      handler: async (context) => {
        const body = parseWith(drainBody, context.request.body);
        const identity = client(context);
        const job = await audited(deps, context, { resource: `node/${body.name}`, command: drainLine(body) }, async () => {
          await getNode(identity, body.name);
          return drains.start(identity, body.name, body, context.state.principal?.username ?? 'unknown');
        });
        context.status = 202;
        context.body = { id: job.id, node: body.name };
      },
    }),
    route({
      method: 'GET',
      path: '/api/node/drain/:id',
      permission: 'view',
      resourceKind: 'nodes',
      summary: 'SSE progress of a drain: events cordoned, pod {namespace, name, status, reason?}, result',
      handler: async (context) => {
        const job = drains.get(String(context.params.id));
        const principal = context.state.principal;
        if (!job || (principal?.role !== 'admin' && principal?.username !== job.requester)) throw notFound(`drain ${context.params.id} not found`);
        streamDrain(context, job, await podVisibility(deps, context));
      },
    }),
    route({
      method: 'GET',
      path: '/api/nodes/:name/pods',
      permission: 'view',
      resourceKind: 'pods',
      listsAllNamespaces: true,
      summary: 'Pods on a node (pod list items): {items, total}',
      handler: async (context) => {
        const { name } = parseWith(nodeBody, context.params, 'path');
        const identity = client(context);
        await getNode(identity, name);
        const items = visibleItems(context, await podsOnNode(deps.caches, identity, await deps.discovery.resolve('pods'), name));
        context.body = { items, total: items.length };
      },
    }),
  ];
}
