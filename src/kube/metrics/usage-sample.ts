import type { KubeIdentityClient } from '../clients.js';
import { nodeMetrics, podMetrics } from './metrics.js';
import { parseQuantity } from './metrics-quantity.js';

/** Every pod's and node's usage now, from metrics.k8s.io, in cores and bytes (the in-memory history's sample). */
export async function readUsage(client: KubeIdentityClient): Promise<{
  pods: { namespace: string; name: string; cpu: number; memory: number }[];
  nodes: { name: string; cpu: number; memory: number }[];
}> {
  const [pods, nodes] = await Promise.all([podMetrics(client), nodeMetrics(client).catch(() => [])]);
  const usage = (item: { cpu: string; memory: string }): { cpu: number; memory: number } => ({
    cpu: parseQuantity(item.cpu) || 0,
    memory: parseQuantity(item.memory) || 0,
  });
  return {
    pods: pods.map((pod) => ({ namespace: pod.namespace, name: pod.name, ...usage(pod) })),
    nodes: nodes.map((node) => ({ name: node.name, ...usage(node) })),
  };
}
