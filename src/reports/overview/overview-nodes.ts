import type { Finding } from '../document/document.js';
import type { Node } from '../context/kube-shapes.js';
import { cpuText, memoryText, quantity } from '../context/quantities.js';
import type { ReportContext } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { count, tableOf, type SectionContent } from '../document/report-sections.js';

const roleLabel = 'node-role.kubernetes.io/';

function rolesOf(node: Node): string {
  const roles = Object.keys(node.metadata?.labels ?? {})
    .filter((label) => label.startsWith(roleLabel))
    .map((label) => label.slice(roleLabel.length));
  return roles.join(',') || '<none>';
}

function readyOf(node: Node): string {
  return node.status?.conditions?.find((condition) => condition.type === 'Ready')?.status ?? 'Unknown';
}

/** Conditions other than Ready that are True (MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable). */
function problemsOf(node: Node): string[] {
  return (node.status?.conditions ?? [])
    .filter((condition) => condition.type !== 'Ready' && condition.status === 'True')
    .map((condition) => condition.type ?? '');
}

/** `allocatable / capacity` of one resource. */
function pair(node: Node, resource: 'cpu' | 'memory'): string {
  const text = resource === 'cpu' ? cpuText : memoryText;
  return `${text(quantity(node.status?.allocatable, resource))} / ${text(quantity(node.status?.capacity, resource))}`;
}

function nodeRow(node: Node): Array<string | number> {
  return [
    node.metadata?.name ?? '',
    rolesOf(node),
    node.status?.nodeInfo?.kubeletVersion ?? '',
    readyOf(node),
    node.spec?.unschedulable ? 'yes' : 'no',
    pair(node, 'cpu'),
    pair(node, 'memory'),
    quantity(node.status?.allocatable, 'pods'),
    problemsOf(node).join(', ') || 'none',
  ];
}

function nodeFindings(node: Node): Finding[] {
  const object = { kind: 'Node', name: node.metadata?.name ?? '' };
  const findings: Finding[] = [];
  if (readyOf(node) !== 'True')
    findings.push({
      rule: 'overview.node-not-ready',
      severity: 'high',
      title: `Node ${object.name} is not Ready`,
      object,
      why: 'Pods on a node that is not Ready are not served and new pods are not scheduled there.',
      fix: 'Check the kubelet and container runtime on the node (kubectl describe node), or replace the node.',
    });
  for (const problem of problemsOf(node))
    findings.push({
      rule: 'overview.node-pressure',
      severity: 'medium',
      title: `Node ${object.name} reports ${problem}`,
      object,
      why: 'Under pressure the kubelet evicts pods and the scheduler avoids the node.',
      fix: 'Free or add the resource on the node, or move workloads elsewhere.',
    });
  return findings;
}

/** Version and nodes: capacity, allocatable, conditions, cordoned. */
export async function nodesSection(context: ReportContext): Promise<SectionContent> {
  const nodes = await context.list<Node>(refs.nodes);
  const sorted = [...nodes].sort((left, right) => (left.metadata?.name ?? '').localeCompare(right.metadata?.name ?? ''));
  const ready = sorted.filter((node) => readyOf(node) === 'True').length;
  const cordoned = sorted.filter((node) => node.spec?.unschedulable).length;
  return {
    summary: `${count(sorted.length, 'node')}: ${ready} Ready, ${cordoned} cordoned.`,
    tables: tableOf(
      'Nodes',
      ['Node', 'Roles', 'Kubelet', 'Ready', 'Cordoned', 'CPU allocatable / capacity', 'Memory allocatable / capacity', 'Pods allocatable', 'Conditions'],
      sorted.map(nodeRow),
    ),
    findings: sorted.flatMap(nodeFindings),
  };
}
