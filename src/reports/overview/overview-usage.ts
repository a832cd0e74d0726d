import { AppError } from '../../errors.js';
import type { Node } from '../context/kube-shapes.js';
import { cpuText, memoryText, percentOf, quantity } from '../context/quantities.js';
import type { RawObject } from '../context/requester-reader.js';
import type { ReportContext } from '../context/report-context.js';
import { refs, type ResourceRef } from '../document/resource-refs.js';
import { tableOf, type SectionContent } from '../document/report-sections.js';

interface NodeMetrics extends RawObject {
  usage?: Record<string, string>;
}

interface PodMetrics extends RawObject {
  containers?: Array<{ usage?: Record<string, string> }>;
}

const topNamespaces = 10;

/** Reads metrics.k8s.io; a cluster that does not serve it says so in words a person can act on. */
async function readMetrics<T extends RawObject>(context: ReportContext, ref: ResourceRef): Promise<T[]> {
  try {
    return await context.list<T>(ref);
  } catch (error) {
    const missing = error instanceof AppError && (error.code === 'NOT_FOUND' || error.details.status === 503);
    if (missing)
      throw new AppError('K8S_ERROR', 'metrics.k8s.io is not available in this cluster (is metrics-server installed?)', { reason: 'metrics_unavailable' });
    throw error;
  }
}

function namespaceUsage(pods: PodMetrics[]): Array<{ namespace: string; cpu: number; memory: number }> {
  const perNamespace = new Map<string, { cpu: number; memory: number }>();
  for (const pod of pods) {
    const namespace = pod.metadata?.namespace ?? '';
    const entry = perNamespace.get(namespace) ?? { cpu: 0, memory: 0 };
    for (const container of pod.containers ?? []) {
      entry.cpu += quantity(container.usage, 'cpu');
      entry.memory += quantity(container.usage, 'memory');
    }
    perNamespace.set(namespace, entry);
  }
  return [...perNamespace.entries()].map(([namespace, usage]) => ({ namespace, ...usage })).sort((left, right) => right.cpu - left.cpu);
}

/** Live usage from metrics.k8s.io: per node against allocatable, and the namespaces using the most. */
export async function usageSection(context: ReportContext): Promise<SectionContent> {
  const podMetrics = await readMetrics<PodMetrics>(context, refs.podMetrics);
  const namespaces = namespaceUsage(podMetrics).slice(0, topNamespaces);
  const namespaceRows = namespaces.map((entry) => [entry.namespace, cpuText(entry.cpu), memoryText(entry.memory)]);
  const namespaceChart = {
    title: 'CPU use of the top namespaces',
    unit: 'millicores',
    bars: namespaces.map((entry) => ({ label: entry.namespace, value: Math.round(entry.cpu * 1000) })),
  };
  // Per-node use is shown for whole-cluster reports only: a node's use is not one namespace's.
  if (context.input.namespace)
    return {
      summary: `Live use of namespace ${context.input.namespace} (metrics.k8s.io).`,
      tables: tableOf('Use per namespace', ['Namespace', 'CPU', 'Memory'], namespaceRows),
      charts: [namespaceChart],
    };
  const [nodeMetrics, nodes] = await Promise.all([readMetrics<NodeMetrics>(context, refs.nodeMetrics), context.list<Node>(refs.nodes)]);
  const allocatable = new Map(nodes.map((node) => [node.metadata?.name ?? '', node.status?.allocatable]));
  const sorted = [...nodeMetrics].sort((left, right) => (left.metadata?.name ?? '').localeCompare(right.metadata?.name ?? ''));
  const nodeRows = sorted.map((item) => {
    const node = allocatable.get(item.metadata?.name ?? '');
    const cpu = quantity(item.usage, 'cpu');
    const memory = quantity(item.usage, 'memory');
    return [item.metadata?.name ?? '', cpuText(cpu), percentOf(cpu, quantity(node, 'cpu')), memoryText(memory), percentOf(memory, quantity(node, 'memory'))];
  });
  const nodeChart = {
    title: 'CPU use per node',
    unit: 'millicores',
    bars: sorted.slice(0, 50).map((item) => ({
      label: item.metadata?.name ?? '',
      value: Math.round(quantity(item.usage, 'cpu') * 1000),
      max: Math.round(quantity(allocatable.get(item.metadata?.name ?? ''), 'cpu') * 1000),
    })),
  };
  return {
    summary: `Live use from metrics.k8s.io: ${sorted.length} nodes; the ${namespaces.length} namespaces using the most CPU.`,
    tables: [
      ...tableOf('Use per node', ['Node', 'CPU', 'CPU % of allocatable', 'Memory', 'Memory % of allocatable'], nodeRows),
      ...tableOf('Top namespaces', ['Namespace', 'CPU', 'Memory'], namespaceRows),
    ],
    charts: [nodeChart, namespaceChart],
  };
}
