import { AppError } from '../../errors.js';
import type { KubeIdentityClient } from '../clients.js';
import { formatCpu, formatMemory, parseQuantity } from './metrics-quantity.js';

interface Usage {
  cpu?: string;
  memory?: string;
}

interface PodMetrics {
  metadata: { name: string; namespace: string };
  containers: { name: string; usage: Usage }[];
}

interface NodeMetrics {
  metadata: { name: string };
  usage: Usage;
}

/** The contract's pod metric item. */
export interface PodMetricItem {
  name: string;
  namespace: string;
  cpu: string;
  memory: string;
}

/** A node metric item: usage and percent of allocatable. */
export interface NodeMetricItem {
  name: string;
  cpu: string;
  memory: string;
  cpuPercent: number | null;
  memoryPercent: number | null;
  /** The node's allocatable CPU and memory as the API server states them (`4`, `16Gi`), null when absent. */
  allocatableCpu: string | null;
  allocatableMemory: string | null;
}

const metricsBase = '/apis/metrics.k8s.io/v1beta1';

/** Reads from metrics.k8s.io; a cluster that does not serve it gives K8S_ERROR reason `metrics_unavailable` (503). */
async function readMetrics<T>(client: KubeIdentityClient, path: string): Promise<T> {
  try {
    return await client.rest.json<T>('GET', `${metricsBase}${path}`, { target: 'metrics.k8s.io' });
  } catch (error) {
    if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.details.status === 503 || error.details.reason === 'ServiceUnavailable')) {
      throw new AppError('K8S_ERROR', 'metrics.k8s.io is not available in this cluster (is metrics-server installed?)', {
        reason: 'metrics_unavailable',
        cluster: error.details,
      });
    }
    throw error;
  }
}

function sumUsage(containers: { usage: Usage }[]): { cpu: number; memory: number } {
  return containers.reduce(
    (total, container) => ({
      cpu: total.cpu + (parseQuantity(container.usage.cpu ?? '0') || 0),
      memory: total.memory + (parseQuantity(container.usage.memory ?? '0') || 0),
    }),
    { cpu: 0, memory: 0 },
  );
}

/** `kubectl top pod`: usage summed over containers, all namespaces when `namespace` is absent. */
export async function podMetrics(client: KubeIdentityClient, namespace?: string): Promise<PodMetricItem[]> {
  const path = namespace ? `/namespaces/${encodeURIComponent(namespace)}/pods` : '/pods';
  const list = await readMetrics<{ items: PodMetrics[] }>(client, path);
  return list.items
    .map((item) => {
      const usage = sumUsage(item.containers);
      return { name: item.metadata.name, namespace: item.metadata.namespace, cpu: formatCpu(usage.cpu), memory: formatMemory(usage.memory) };
    })
    .sort((left, right) => left.namespace.localeCompare(right.namespace) || left.name.localeCompare(right.name));
}

function percent(used: number, allocatable: string | undefined): number | null {
  const total = allocatable ? parseQuantity(allocatable) : Number.NaN;
  return total > 0 ? Math.round((used / total) * 100) : null;
}

/** `kubectl top node`: usage and percent of allocatable. */
export async function nodeMetrics(client: KubeIdentityClient): Promise<NodeMetricItem[]> {
  const [metrics, nodes] = await Promise.all([
    readMetrics<{ items: NodeMetrics[] }>(client, '/nodes'),
    client.rest.json<{ items: { metadata: { name: string }; status?: { allocatable?: Record<string, string> } }[] }>('GET', '/api/v1/nodes', {
      target: 'nodes',
    }),
  ]);
  const allocatable = new Map(nodes.items.map((node) => [node.metadata.name, node.status?.allocatable ?? {}]));
  return metrics.items
    .map((item) => {
      const cpu = parseQuantity(item.usage.cpu ?? '0') || 0;
      const memory = parseQuantity(item.usage.memory ?? '0') || 0;
      const node = allocatable.get(item.metadata.name) ?? {};
      return {
        name: item.metadata.name,
        cpu: formatCpu(cpu),
        memory: formatMemory(memory),
        cpuPercent: percent(cpu, node.cpu),
        memoryPercent: percent(memory, node.memory),
        allocatableCpu: node.cpu ?? null,
        allocatableMemory: node.memory ?? null,
      };
    })
    .sort((left, right) => left.name.localeCompare(right.name));
}
