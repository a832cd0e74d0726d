import type { CacheManager } from '../kube/cache/cache-manager.js';
import type { KubeClients, KubeIdentityClient } from '../kube/clients.js';
import type { Discovery, ResourceType } from '../kube/discovery.js';
import type { PolicyEngine } from '../rbac/policy-engine.js';
import type { Principal } from '../rbac/principal.js';
import { resourceRequestAttributes } from '../rbac/resource-request.js';
import type { MetricsView } from './metrics-view.js';

/** What the metrics view of a caller is computed from: the cluster scope's discovery, caches (access sets) and policy. */
export interface MetricsAccessScope {
  kube: Pick<KubeClients, 'forIdentity'>;
  discovery: Pick<Discovery, 'resolve'>;
  caches: Pick<CacheManager, 'access' | 'view'>;
  policy: Pick<PolicyEngine, 'authorize' | 'hiddenNamespaces'>;
}

/** The names of the cluster's Namespaces, from the shared watch-fed cache (the service's own identity). */
async function presentNamespaces(scope: MetricsAccessScope): Promise<string[]> {
  const type = await scope.discovery.resolve('namespaces');
  const view = await scope.caches.view(scope.kube.forIdentity(undefined), type);
  return view.cache.snapshot().flatMap((row) => (row.object?.metadata?.name ? [row.object.metadata.name] : []));
}

/** Whether the cluster's RBAC (as the caller) lets them list `type` across the cluster. */
async function clusterAllows(scope: MetricsAccessScope, client: KubeIdentityClient, type: ResourceType): Promise<boolean> {
  if (client.identity === undefined) return true;
  return (await scope.caches.access.of(client, type, undefined, async () => [])).all;
}

/** Whether the caller may list nodes: our policy and the cluster's RBAC both. */
async function mayListNodes(scope: MetricsAccessScope, principal: Principal | undefined, client: KubeIdentityClient): Promise<boolean> {
  const attributes = resourceRequestAttributes({ verb: 'list', apiGroup: '', resource: 'nodes', namespace: '', name: '' });
  if (!(await scope.policy.authorize(principal, attributes, 'direct')).allowed) return false;
  return clusterAllows(scope, client, await scope.discovery.resolve('nodes'));
}

/**
 * The namespaces whose pods the caller may list, as the list view computes it (ADR 0033): the cluster's
 * RBAC as the caller (SelfSubjectAccessReviews, kept per identity until RBAC changes) cut by the namespaces
 * our policy hides (deny roles, Pilothouse's own namespace); 'all' when neither cuts anything.
 */
async function podNamespaces(scope: MetricsAccessScope, principal: Principal | undefined, client: KubeIdentityClient): Promise<readonly string[] | 'all'> {
  const hidden = await scope.policy.hiddenNamespaces(principal, { apiGroup: '', resource: 'pods' }, 'list');
  if (hidden.all) return [];
  const pods = await scope.discovery.resolve('pods');
  const access =
    client.identity === undefined ? ({ all: true } as const) : await scope.caches.access.of(client, pods, undefined, () => presentNamespaces(scope));
  if (access.all && hidden.namespaces.size === 0) return 'all';
  const allowed = access.all ? await presentNamespaces(scope) : [...access.namespaces];
  return allowed.filter((namespace) => !hidden.namespaces.has(namespace));
}

/**
 * What the caller may read of the cluster's metrics (src/prometheus/enforce-query.ts enforces it): the series of
 * the namespaces where they may list pods, and the series without a namespace (nodes, the control plane) when they
 * may list nodes. Everything, when both hold everywhere (admins, as a rule).
 */
export async function metricsViewOf(scope: MetricsAccessScope, principal: Principal | undefined, client: KubeIdentityClient): Promise<MetricsView> {
  const [namespaces, nodes] = await Promise.all([podNamespaces(scope, principal, client), mayListNodes(scope, principal, client)]);
  if (namespaces === 'all' && nodes) return { unrestricted: true };
  return { unrestricted: false, namespaces, nodes };
}
