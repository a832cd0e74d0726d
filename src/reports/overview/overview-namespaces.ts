import type { NamespaceObject, Pod } from '../context/kube-shapes.js';
import type { ReportContext } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { count, limitedTableOf, type SectionContent } from '../document/report-sections.js';
import { healthyPod } from './overview-pod-health.js';

/** Namespaces in scope with their phase and pods (omitted ones are named in the report's scope). */
export async function namespacesSection(context: ReportContext): Promise<SectionContent> {
  const [namespaces, pods] = await Promise.all([context.list<NamespaceObject>(refs.namespaces), context.list<Pod>(refs.pods)]);
  const scoped = context.input.namespace ? namespaces.filter((namespace) => namespace.metadata?.name === context.input.namespace) : namespaces;
  const perNamespace = new Map<string, { pods: number; healthy: number }>();
  for (const pod of pods) {
    const entry = perNamespace.get(pod.metadata?.namespace ?? '') ?? { pods: 0, healthy: 0 };
    entry.pods += 1;
    if (healthyPod(pod)) entry.healthy += 1;
    perNamespace.set(pod.metadata?.namespace ?? '', entry);
  }
  const rows = scoped
    .map((namespace) => {
      const name = namespace.metadata?.name ?? '';
      const entry = perNamespace.get(name) ?? { pods: 0, healthy: 0 };
      return [name, namespace.status?.phase ?? '', entry.pods, entry.healthy, namespace.metadata?.creationTimestamp ?? ''];
    })
    .sort((left, right) => String(left[0]).localeCompare(String(right[0])));
  const omitted = context.reader.omittedNamespaces().length;
  const left = omitted > 0 ? ` ${count(omitted, 'namespace')} left out: not visible to the requester (named in the report's scope).` : '';
  return {
    summary: `${count(rows.length, 'namespace')}.${left}`,
    tables: limitedTableOf('Namespaces', ['Namespace', 'Phase', 'Pods', 'Running or completed', 'Created'], rows),
  };
}
