import type { GenerateInput, ReportDocument, ReportGenerator } from '../document/document.js';
import type { GeneratorDeps } from '../context/generator-deps.js';
import { generateSections, type SectionStep } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { capacitySection } from './overview-capacity.js';
import { eventsSection } from './overview-events.js';
import { helmSection } from './overview-helm.js';
import { namespacesSection } from './overview-namespaces.js';
import { nodesSection } from './overview-nodes.js';
import { usageSection } from './overview-usage.js';
import { workloadsSection } from './overview-workloads.js';

const collections = [
  refs.namespaces,
  refs.nodes,
  refs.pods,
  refs.deployments,
  refs.statefulSets,
  refs.daemonSets,
  refs.jobs,
  refs.events,
  refs.nodeMetrics,
  refs.podMetrics,
];

const steps: SectionStep[] = [
  { id: 'nodes', title: 'Version and nodes', build: nodesSection },
  { id: 'namespaces', title: 'Namespaces', build: namespacesSection },
  { id: 'workloads', title: 'Workloads and health', build: workloadsSection },
  { id: 'capacity', title: 'Requests against allocatable', build: capacitySection },
  { id: 'usage', title: 'Live usage (metrics.k8s.io)', build: usageSection },
  { id: 'events', title: 'Recent Warning events', build: eventsSection },
  { id: 'helm', title: 'Helm releases', build: helmSection },
];

/** The cluster overview: nodes, namespaces, workload health, requests and live use, warnings, Helm releases. */
export class ClusterOverviewGenerator implements ReportGenerator {
  readonly type = 'cluster-overview' as const;

  constructor(private readonly deps: GeneratorDeps) {}

  generate(input: GenerateInput): Promise<ReportDocument> {
    return generateSections(this.deps, input, { type: this.type, title: 'Cluster overview', collections, steps });
  }
}
