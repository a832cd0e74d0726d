import { randomBytes } from 'node:crypto';
import { ownsOrAdministers } from '../../rbac/ownership.js';
import { z } from 'zod';
import { identityAnnotation, serviceIdentity } from '../../controllers/port-forward-reconciler.js';
import type { PortForward } from '../../crds/port-forward.js';
import { AppError, notFound } from '../../errors.js';
import type { KubeIdentityClient } from '../../kube/clients.js';
import { getPod, type PodObject } from '../../kube/pods/pod-target.js';
import { audited, type AuditContextDeps } from '../audit-context.js';
import { namespaceSchema, objectNameSchema, parseWith } from '../schemas/validate.js';
import { kubeOf, scopeOf } from '../request-state.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import { itemsOf } from '../schemas/api-schemas.js';
import type { Clock } from '../../clock.js';
import type { CustomClient } from '../../kube/custom-client.js';
import type { ClusterScopes } from '../../clusters/scope.js';
import { clusterFilterQuery } from '../schemas/cluster-schemas.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface PortforwardRouteDeps extends AuditContextDeps {
  /** The home cluster's name: a forward without `spec.cluster` is the home cluster's. */
  clusters: Pick<ClusterScopes, 'homeName'>;
  /** PortForward objects in the Pilothouse namespace (service identity). */
  portForwards: CustomClient<PortForward>;
  /** Decides when the wait for the controller gives up. */
  clock: Clock;
}

const createBody = z
  .object({
    namespace: namespaceSchema,
    pod: objectNameSchema,
    podPort: z.number().int().min(1).max(65535),
    localPort: z.number().int().min(0).max(65535).default(0),
    /** The Service the forward is opened for (one of the pods it selects is `pod`): the forward is listed as the Service. */
    service: objectNameSchema.optional(),
  })
  .meta({ id: 'PortForwardCreateBody' });

const forwardView = z
  .object({
    id: z.string(),
    namespace: z.string(),
    pod: z.string(),
    /** The Service the forward was opened for, when it was (the tunnel goes to `pod`, one pod it selects). */
    service: z.string().nullable().optional(),
    /** The cluster of the pod (ADR 0035). */
    cluster: z.string(),
    podPort: z.number().int(),
    localPort: z.number().int().nullable().optional(),
    status: z.string(),
    address: z.string().nullable(),
    message: z.string().nullable(),
    requester: z.string().nullable(),
    createdAt: z.string().nullable(),
  })
  .catchall(z.unknown())
  .meta({ id: 'PortForward' });
const forwardStarted = z.object({ id: z.string(), localPort: z.number().int(), status: z.literal('active'), address: z.string().optional() }).meta({
  id: 'PortForwardStarted',
});
const idParams = z.object({ id: objectNameSchema });

/** The Service a forward was opened for (display only: the tunnel goes to `spec.pod`, one pod it selects). */
const serviceAnnotation = 'pilothouse.dev/service';

/** How long POST waits for the controller to bring the listener up. */
const activationTimeoutMs = 15_000;

/** The cluster a forward opens to: `spec.cluster`, else the home cluster. */
function clusterOfForward(object: PortForward, homeCluster: string): string {
  return object.spec.cluster ?? homeCluster;
}

/** The API view of a PortForward object. */
function view(object: PortForward, homeCluster: string): Record<string, unknown> {
  const status = object.status ?? {};
  return {
    id: object.metadata.name,
    namespace: object.spec.namespace,
    pod: object.spec.pod,
    service: object.metadata.annotations?.[serviceAnnotation] ?? null,
    cluster: clusterOfForward(object, homeCluster),
    podPort: object.spec.podPort,
    localPort: status.localPort ?? object.spec.localPort,
    status: status.phase ?? 'Pending',
    address: status.address ?? null,
    message: status.message || null,
    requester: object.spec.requester ?? null,
    createdAt: object.metadata.creationTimestamp ?? null,
  };
}

function visibleTo(context: AppContext, object: PortForward): boolean {
  return ownsOrAdministers(context.state.principal, object.spec.requester);
}

async function waitForPhase(client: CustomClient<PortForward>, name: string, clock: Clock): Promise<PortForward | undefined> {
  const deadline = clock() + activationTimeoutMs;
  while (clock() < deadline) {
    const object = await client.get(name);
    if (object?.status?.phase === 'active' || object?.status?.phase === 'failed') return object;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return undefined;
}

async function createForward(deps: PortforwardRouteDeps, context: AppContext): Promise<Record<string, unknown>> {
  const body = parseWith(createBody, context.request.body);
  const principal = context.state.principal;
  const scope = scopeOf(context);
  const pod = await getPod(kubeOf(context), body.namespace, body.pod);
  if (body.service) await requireSelects(kubeOf(context), body.service, pod);
  const client = deps.portForwards;
  const name = `pf-${randomBytes(4).toString('hex')}`;
  // The cluster and the identity there travel with the object from its creation: the reconciler opens the
  // tunnel to that cluster as that identity, and refuses objects without one.
  const identity = scope.identities.identityOf(principal) ?? serviceIdentity;
  const { service, ...target } = body;
  const spec = { ...target, requester: principal?.username ?? 'unknown', cluster: scope.name };
  await client.create(name, spec, {}, { [identityAnnotation]: identity, ...(service ? { [serviceAnnotation]: service } : {}) });
  return activationResult(client, name, await waitForPhase(client, name, deps.clock));
}

/** A forward listed as a Service must go to a pod that Service selects (read with the caller's identity: 404 when absent). */
async function requireSelects(client: KubeIdentityClient, service: string, pod: PodObject): Promise<void> {
  const path = `/api/v1/namespaces/${encodeURIComponent(pod.metadata.namespace)}/services/${encodeURIComponent(service)}`;
  const object = await client.rest.json<{ spec?: { selector?: Record<string, string> } }>('GET', path, { target: `services/${service}` });
  const selector = Object.entries(object.spec?.selector ?? {});
  const labels = pod.metadata.labels ?? {};
  if (selector.length === 0 || selector.some(([key, value]) => labels[key] !== value)) {
    throw new AppError('VALIDATION_ERROR', `service ${service} does not select pod ${pod.metadata.name}`, { service, pod: pod.metadata.name });
  }
}

/** 201 body for an active forward; a failed or silent one is deleted and reported. */
async function activationResult(client: CustomClient<PortForward>, name: string, object: PortForward | undefined): Promise<Record<string, unknown>> {
  const status = object?.status ?? {};
  if (status.phase === 'active') return { id: name, localPort: status.localPort, status: 'active', address: status.address };
  await client.delete(name);
  if (!object) throw new AppError('UNAVAILABLE', 'the port-forward controller did not open the listener in time (is this replica the leader?)', { id: name });
  throw new AppError('VALIDATION_ERROR', `port forward failed: ${status.message ?? 'unknown reason'}`, {
    reason: 'portforward_failed',
    message: status.message,
  });
}

/** Port forwards: PortForward objects reconciled by the controller. */
export function portForwardRoutes(deps: PortforwardRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'POST',
      path: '/api/portforward',
      permission: 'execute_write',
      resourceKind: 'pods',
      subresource: 'portforward',
      summary: 'Start a forward to a pod of ?cluster= (default home; localPort 0 = pick): 201 {id, localPort, status: "active", address}',
      cluster: true,
      body: createBody,
      status: 201,
      response: forwardStarted,
      handler: async (context, { body }) => {
        const line = `kubectl port-forward pod/${body.pod} ${body.localPort || ''}:${body.podPort} -n ${body.namespace}${body.service ? ` (service/${body.service})` : ''}`;
        context.body = await audited(deps, context, { resource: `pod/${body.pod}`, command: line }, () => createForward(deps, context));
        context.status = 201;
      },
    }),
    route({
      method: 'GET',
      path: '/api/portforward',
      permission: 'view',
      summary:
        "The caller's forwards (all for admin) on every cluster, ?cluster=NAME keeps one cluster's: {items: [{id, namespace, pod, service, cluster, podPort, localPort, status, address, message, requester, createdAt}]}",
      query: clusterFilterQuery,
      response: itemsOf(forwardView),
      handler: async (context, { query }) => {
        const home = deps.clusters.homeName;
        const { items } = await deps.portForwards.list();
        const kept = items.filter((object) => visibleTo(context, object) && (!query.cluster || clusterOfForward(object, home) === query.cluster));
        context.body = { items: kept.map((object) => view(object, home)) };
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/portforward/:id',
      permission: 'execute_write',
      summary: 'Stop a forward and delete its object: {id, status: "stopped"}',
      params: idParams,
      response: z.object({ id: z.string(), status: z.literal('stopped') }).meta({ id: 'PortForwardStopped' }),
      handler: async (context, { params: { id } }) => {
        const client = deps.portForwards;
        const object = await client.get(id);
        if (!object || !visibleTo(context, object)) throw notFound(`port forward ${id} not found`);
        const line = `kill port-forward ${id} (kubectl port-forward pod/${object.spec.pod} -n ${object.spec.namespace})`;
        const cluster = clusterOfForward(object, deps.clusters.homeName);
        await audited(deps, context, { resource: `portforward/${id}`, command: line, cluster }, () => client.delete(id));
        context.body = { id, status: 'stopped' };
      },
    }),
  ];
}
