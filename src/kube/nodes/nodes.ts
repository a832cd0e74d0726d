import { inView, type CacheManager } from '../cache/cache-manager.js';
import type { KubeIdentityClient } from '../clients.js';
import type { ResourceType } from '../discovery.js';
import { rowToItem, type ResourceItem } from '../cache/table.js';

export interface NodeObject {
  metadata: { name: string };
  spec: { unschedulable?: boolean };
  status?: { allocatable?: Record<string, string> };
}

export interface NodeChange {
  name: string;
  before: { unschedulable: boolean };
  after: { unschedulable: boolean };
}

function nodePath(name: string): string {
  return `/api/v1/nodes/${encodeURIComponent(name)}`;
}

/** Reads a node with the caller's identity (404 when absent). */
export function getNode(client: KubeIdentityClient, name: string): Promise<NodeObject> {
  return client.rest.json<NodeObject>('GET', nodePath(name), { target: `nodes/${name}` });
}

/** `kubectl cordon|uncordon`: sets spec.unschedulable. */
export async function setUnschedulable(client: KubeIdentityClient, name: string, unschedulable: boolean): Promise<NodeChange> {
  const node = await getNode(client, name);
  await client.rest.json('PATCH', nodePath(name), {
    body: { spec: { unschedulable: unschedulable || null } },
    contentType: 'application/merge-patch+json',
    target: `nodes/${name}`,
  });
  return { name, before: { unschedulable: node.spec.unschedulable ?? false }, after: { unschedulable } };
}

/** Pods scheduled on a node, from the watch-fed pod cache (same item shape as the pod list). */
export async function podsOnNode(caches: CacheManager, client: KubeIdentityClient, podType: ResourceType, node: string): Promise<ResourceItem[]> {
  const { cache, access } = await caches.view(client, podType, undefined);
  const now = Date.now();
  return cache
    .snapshot()
    .filter((row) => inView(access, row.object?.metadata?.namespace))
    .map((row) => rowToItem(cache.columns, row, now, 'Pod'))
    .filter((item) => item.node === node)
    .sort((left, right) => (left.namespace ?? '').localeCompare(right.namespace ?? '') || left.name.localeCompare(right.name));
}
