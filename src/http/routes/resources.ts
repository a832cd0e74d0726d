import { z } from 'zod';
import type { Clock } from '../../clock.js';
import { requireNamespace, getObject, toYaml, describeObject, deleteObject, type KubeObject } from '../../kube/objects/resources.js';
import { startEventStream } from '../event-stream.js';
import { replyWithList } from '../list-reply.js';
import { maskDescribe, maskObject, secretKindOf } from '../../rbac/secret-masking.js';
import { secretVisibility } from '../../rbac/secret-visibility.js';
import type { ResourceType } from '../../kube/discovery.js';
import { namespaceSchema, objectNameSchema, queryInteger } from '../schemas/validate.js';
import { route, type AppContext, type ErrorStatus, type RouteSpec } from '../types.js';
import { kubernetesObject, listOf, resourceItem } from '../schemas/api-schemas.js';
import { kubeOf, resourceTypeOf, scopeOf } from '../request-state.js';
import { audited } from '../audit-context.js';
import { visibleDescribe } from '../describe-visibility.js';
import { auditedRead, type AuditReadsDeps } from '../audit-reads.js';
import { WatchFeeds, type FeedSubscriber } from '../../kube/cache/watch-feeds.js';
import { ListRefused, type ListAccessSets } from '../../kube/cache/list-access.js';
import type { ListRequest, LiveList } from '../../kube/list-view/list-view.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface ResourcesRouteDeps extends AuditReadsDeps {
  clock: Clock;
}

const listQuery = z.object({ namespace: namespaceSchema.optional() });
const collectionQuery = listQuery.extend({
  labelSelector: z.string().max(1024).optional().describe('Kubernetes label selector (`app=web,tier in (a,b)`, `!legacy`)'),
});
const pagedQuery = collectionQuery.extend({
  limit: queryInteger.pipe(z.number().int().min(1).max(10_000)).optional().describe('Page size; the answer has `continue` when more items follow'),
  continue: z.string().max(512).optional().describe('The `continue` of the previous page'),
  sortBy: z
    .string()
    .max(64)
    .regex(/^-?[A-Za-z][A-Za-z0-9]*$/, 'must be a column key such as name, age or restarts, with - for descending')
    .optional()
    .describe('Column key to sort by (`-` descending); then namespace and name'),
});
const pagedList = listOf(resourceItem).extend({ continue: z.string().optional() }).meta({ id: 'ResourcePage' });
const watchEvents = {
  snapshot: z.object({ items: z.array(resourceItem), total: z.number().int(), revision: z.string() }),
  added: z.object({ item: resourceItem, revision: z.string() }),
  modified: z.object({ item: resourceItem, revision: z.string() }),
  deleted: z.object({ item: resourceItem, revision: z.string() }),
  /** The last event when the stream ends from the service's side: the client fell behind, its cluster was removed, or the cluster refused the caller's list. */
  error: z.object({ error: z.string(), code: z.string(), details: z.record(z.string(), z.unknown()) }).meta({
    id: 'LiveListError',
    description:
      'The last event: UNAVAILABLE with details.reason slow_client or cache_stopped (open the live list again); FORBIDDEN when the cluster no longer lets the caller list; UNAUTHORIZED when the session ended or the role changed (details.reason role_changed)',
  }),
};
/** Keep-alive comments on live lists, so proxies keep an idle stream open. */
const keepAliveMs = 15_000;
const resourceParam = z
  .string()
  .max(253)
  .regex(/^[a-zA-Z][a-zA-Z0-9.-]*$/, 'must be a resource type name such as pods or deployments.apps');
const typeParams = z.object({ resource: resourceParam });
const objectParams = z.object({ resource: resourceParam, name: objectNameSchema });
type ObjectInput = { params: z.output<typeof objectParams>; query: z.output<typeof listQuery> };
const objectReference = z
  .object({ kind: z.string(), name: z.string(), namespace: z.string().optional(), apiVersion: z.string() })
  .meta({ id: 'ObjectReference' });

interface ObjectTarget {
  type: ResourceType;
  name: string;
  namespace: string | undefined;
}

async function resolveTarget(context: AppContext, input: ObjectInput): Promise<ObjectTarget> {
  const type = await resourceTypeOf(context, input.params.resource);
  return { type, name: input.params.name, namespace: requireNamespace(type, input.query.namespace) };
}

/** Whether reading objects of this type reveals secret values (Secrets, MCPServers). */
function sensitiveType(type: ResourceType): boolean {
  return secretKindOf({ kind: type.kind, apiVersion: type.group ? `${type.group}/${type.version}` : type.version }) !== undefined;
}

/** Reads one object (audited per `audit.include_reads`) and masks it for the caller. */
async function readObject(deps: ResourcesRouteDeps, context: AppContext, target: ObjectTarget, output: string): Promise<KubeObject> {
  const read = {
    resource: `${target.type.kind.toLowerCase()}/${target.name}`,
    command: `${kubectlLine('get', target)} -o ${output}`,
    sensitive: sensitiveType(target.type),
  };
  const object = await auditedRead(deps, context, read, () => getObject(kubeOf(context), target.type, target.name, target.namespace));
  return maskObject(object, secretVisibility(context.state.principal));
}

/** The list the request asks for, with the namespaces our policy hides from the caller (plain data for the list view). */
async function listRequest(context: AppContext, resource: string, query: { namespace?: string; labelSelector?: string }): Promise<ListRequest> {
  return {
    type: await resourceTypeOf(context, resource),
    namespace: query.namespace,
    labelSelector: query.labelSelector,
    hidden: context.state.hiddenNamespaces,
  };
}

/**
 * Streams a live list from the shared feed of its cache and target (src/kube/cache/watch-feeds.ts): the client sees
 * the items of the namespaces the cluster lets it list and our policy does not hide; after an RBAC change its
 * access is computed again and a changed one gets a fresh snapshot (or the 403 and the end). Keep-alives;
 * cleanup when the client goes.
 */
function streamLive(context: AppContext, live: LiveList, feeds: WatchFeeds, access: ListAccessSets): void {
  const stream = startEventStream(context);
  let visibility = live.visibility;
  const cache = visibility.view.cache;
  const subscriber: FeedSubscriber = {
    sees: (item) => visibility.sees(item),
    classKey: () => visibility.classKey(),
    pending: () => stream.pending(),
    write: (text) => stream.write(text),
    drop: (text) => {
      stream.write(text);
      stream.end();
    },
  };
  const recheck = (): void => {
    live.recheck().then(
      (next) => {
        if (stream.signal.aborted || next.accessKey() === visibility.accessKey()) return;
        visibility = visibility.with({ cache, access: next.view.access });
        feeds.refresh(cache, live.target, [subscriber]);
      },
      (error: unknown) => {
        if (!(error instanceof ListRefused) || stream.signal.aborted) return;
        stream.send('error', { error: error.message, code: error.code, details: error.details });
        stream.end();
      },
    );
  };
  const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), keepAliveMs);
  keepAlive.unref();
  const unsubscribe = feeds.subscribe(cache, live.target, subscriber);
  const stopRecheck = access.onChange(recheck);
  stream.signal.addEventListener('abort', () => {
    clearInterval(keepAlive);
    unsubscribe();
    stopRecheck();
    stream.end();
  });
}

/** Cluster resources: list, get, yaml, describe, delete for any kind the cluster serves. */
export function resourceRoutes(deps: ResourcesRouteDeps): RouteSpec[] {
  const feeds = new WatchFeeds();
  const object = { cluster: true, resourceKind: ':resource', params: objectParams, query: listQuery, errors: [404] as ErrorStatus[] };
  return [
    route({
      method: 'GET',
      path: '/api/k8s/:resource',
      permission: 'view',
      cluster: true,
      resourceKind: ':resource',
      summary:
        'List resources of a kind (all namespaces when namespace is absent), optionally by label selector, sorted and paged; ETag/If-None-Match (304) and br/gzip',
      params: typeParams,
      query: pagedQuery,
      response: pagedList,
      errors: [404],
      handler: async (context, { params, query }) => {
        const page = { limit: query.limit, continue: query.continue, sortBy: query.sortBy };
        replyWithList(context, await scopeOf(context).lists.page(kubeOf(context), await listRequest(context, params.resource, query), page));
      },
    }),
    route({
      method: 'GET',
      path: '/api/k8s/:resource/watch',
      permission: 'view',
      cluster: true,
      resourceKind: ':resource',
      summary:
        'Live list (SSE): a snapshot in the list item shape, then added/modified/deleted rows as the cluster changes; same authorization as the list (an object named "watch" is read with /api/k8s/{resource}/watch/yaml)',
      params: typeParams,
      query: collectionQuery,
      produces: 'text/event-stream',
      events: watchEvents,
      errors: [404],
      handler: async (context, { params, query }) => {
        // The first list happens before the stream starts, so its failures answer with the error body.
        const live = await scopeOf(context).lists.live(kubeOf(context), await listRequest(context, params.resource, query));
        streamLive(context, live, feeds, scopeOf(context).caches.access);
      },
    }),
    route({
      method: 'GET',
      path: '/api/k8s/:resource/:name',
      permission: 'view',
      ...object,
      summary: 'One resource as JSON',
      response: kubernetesObject,
      handler: async (context, input) => {
        context.body = await readObject(deps, context, await resolveTarget(context, input), 'json');
      },
    }),
    route({
      method: 'GET',
      path: '/api/k8s/:resource/:name/yaml',
      permission: 'view',
      ...object,
      summary: 'One resource as YAML (managedFields stripped)',
      produces: 'text/yaml',
      handler: async (context, input) => {
        const read = await readObject(deps, context, await resolveTarget(context, input), 'yaml');
        context.type = 'text/yaml';
        context.body = toYaml(read);
      },
    }),
    route({
      method: 'GET',
      path: '/api/k8s/:resource/:name/describe',
      permission: 'view',
      ...object,
      summary: 'kubectl describe text',
      produces: 'text/plain',
      handler: async (context, input) => {
        const target = await resolveTarget(context, input);
        const read = {
          resource: `${target.type.kind.toLowerCase()}/${target.name}`,
          command: kubectlLine('describe', target),
          sensitive: sensitiveType(target.type),
        };
        const text = await auditedRead(deps, context, read, () =>
          describeObject(scopeOf(context).identities.kubectlFor(context.state.principal), target.type, target.name, target.namespace),
        );
        const principal = context.state.principal;
        context.type = 'text/plain';
        context.body = maskDescribe(await visibleDescribe(scopeOf(context).policy, principal, target, text), target.type.kind, secretVisibility(principal));
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/k8s/:resource/:name',
      permission: 'delete',
      ...object,
      summary: 'Delete a resource; returns its reference',
      response: objectReference,
      handler: async (context, input) => {
        const target = await resolveTarget(context, input);
        context.body = await audited(
          deps,
          context,
          { resource: `${target.type.kind.toLowerCase()}/${target.name}`, command: kubectlLine('delete', target) },
          () => deleteObject(kubeOf(context), target.type, target.name, target.namespace),
        );
      },
    }),
  ];
}

function kubectlLine(verb: string, target: ObjectTarget): string {
  const resource = target.type.group ? `${target.type.plural}.${target.type.group}` : target.type.plural;
  return `kubectl ${verb} ${resource} ${target.name}${target.namespace ? ` -n ${target.namespace}` : ''}`;
}
