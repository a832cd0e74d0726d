import type { BarChart } from '../document/document.js';
import type { Node, Pod } from '../context/kube-shapes.js';
import { cpuText, memoryText, percentOf, quantity } from '../context/quantities.js';
import type { ReportContext } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { limitedTableOf, type SectionContent } from '../document/report-sections.js';

interface Requests {
  cpu: number;
  memory: number;
  pods: number;
}

/** Requests of a pod that occupies its node (not finished), summed over containers (init containers: the largest one, as the scheduler does). */
function requestsOf(pod: Pod): { cpu: number; memory: number } {
  const sum = (pod.spec?.containers ?? []).reduce(
    (total, container) => ({
      cpu: total.cpu + quantity(container.resources?.requests, 'cpu'),
      memory: total.memory + quantity(container.resources?.requests, 'memory'),
    }),
    { cpu: 0, memory: 0 },
  );
  for (const init of pod.spec?.initContainers ?? []) {
    sum.cpu = Math.max(sum.cpu, quantity(init.resources?.requests, 'cpu'));
    sum.memory = Math.max(sum.memory, quantity(init.resources?.requests, 'memory'));
  }
  return sum;
}

function requestsPerNode(pods: Pod[]): Map<string, Requests> {
  const perNode = new Map<string, Requests>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName;
    if (!node || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
    const requests = requestsOf(pod);
    const entry = perNode.get(node) ?? { cpu: 0, memory: 0, pods: 0 };
    perNode.set(node, { cpu: entry.cpu + requests.cpu, memory: entry.memory + requests.memory, pods: entry.pods + 1 });
  }
  return perNode;
}

/** Bars of one resource per node (value and allocatable as max). */
function chartOf(title: string, unit: string, bars: BarChart['bars']): BarChart {
  return { title, unit, bars: bars.slice(0, 50) };
}

/** Resource requests against allocatable, per node (what the scheduler sees), with bar charts. */
export async function capacitySection(context: ReportContext): Promise<SectionContent> {
  const [nodes, pods] = await Promise.all([context.list<Node>(refs.nodes), context.list<Pod>(refs.pods)]);
  const perNode = requestsPerNode(pods);
  const sorted = [...nodes].sort((left, right) => (left.metadata?.name ?? '').localeCompare(right.metadata?.name ?? ''));
  const rows = sorted.map((node) => {
    const requests = perNode.get(node.metadata?.name ?? '') ?? { cpu: 0, memory: 0, pods: 0 };
    const allocatable = node.status?.allocatable;
    return [
      node.metadata?.name ?? '',
      `${cpuText(requests.cpu)} / ${cpuText(quantity(allocatable, 'cpu'))}`,
      percentOf(requests.cpu, quantity(allocatable, 'cpu')),
      `${memoryText(requests.memory)} / ${memoryText(quantity(allocatable, 'memory'))}`,
      percentOf(requests.memory, quantity(allocatable, 'memory')),
      `${requests.pods} / ${quantity(allocatable, 'pods')}`,
    ];
  });
  const cpuBars = sorted.map((node) => ({
    label: node.metadata?.name ?? '',
    value: Math.round((perNode.get(node.metadata?.name ?? '')?.cpu ?? 0) * 1000),
    max: Math.round(quantity(node.status?.allocatable, 'cpu') * 1000),
  }));
  const memoryBars = sorted.map((node) => ({
    label: node.metadata?.name ?? '',
    value: Math.round((perNode.get(node.metadata?.name ?? '')?.memory ?? 0) / 2 ** 20),
    max: Math.round(quantity(node.status?.allocatable, 'memory') / 2 ** 20),
  }));
  const scopeNote = context.input.namespace ? ` Requests count the pods of namespace ${context.input.namespace} only.` : '';
  return {
    summary: `Requests of running and pending pods against each node's allocatable resources.${scopeNote}`,
    tables: limitedTableOf(
      'Requests against allocatable',
      ['Node', 'CPU requests / allocatable', 'CPU %', 'Memory requests / allocatable', 'Memory %', 'Pods'],
      rows,
    ),
    charts: [chartOf('CPU requests per node', 'millicores', cpuBars), chartOf('Memory requests per node', 'MiB', memoryBars)],
  };
}
