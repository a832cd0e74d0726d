import type { Finding } from '@pilothouse/wire/types';
import type { ResourceTarget } from '../../shared/resource-target';
import { compareFindings } from '../../shared/live-problems';

export type { Finding };
export type Severity = Finding['severity'];
export const severities: readonly Severity[] = ['critical', 'warning', 'info'];

/** The filters of the Problems page ('' = any). */
export interface ProblemFilters {
  namespace: string;
  severity: '' | Severity;
  kind: string;
  /** Matched against reason, message, object, owner, evidence and hint. */
  text: string;
}

export const noFilters: ProblemFilters = { namespace: '', severity: '', kind: '', text: '' };

function textOf(finding: Finding): string {
  const { object, owner } = finding;
  return [finding.reason, finding.message, object.kind, object.namespace, object.name, owner?.kind, owner?.name, finding.hint, ...finding.evidence]
    .join('\n')
    .toLowerCase();
}

/** Whether a finding passes the page's filters (kinds compare case-insensitively, text anywhere). */
export function matchesFilters(finding: Finding, filters: ProblemFilters): boolean {
  if (filters.namespace && finding.object.namespace !== filters.namespace) return false;
  if (filters.severity && finding.severity !== filters.severity) return false;
  if (filters.kind && finding.object.kind.toLowerCase() !== filters.kind.toLowerCase()) return false;
  const text = filters.text.trim().toLowerCase();
  return !text || textOf(finding).includes(text);
}

/** Findings of one severity, by namespace ('' for cluster-scoped objects), in the server's order. */
export interface SeverityGroup {
  severity: Severity;
  namespaces: { namespace: string; items: Finding[] }[];
}

export function groupFindings(findings: readonly Finding[]): SeverityGroup[] {
  const groups: SeverityGroup[] = [];
  for (const severity of severities) {
    const byNamespace = new Map<string, Finding[]>();
    for (const finding of findings.filter((item) => item.severity === severity).sort(compareFindings)) {
      const namespace = finding.object.namespace ?? '';
      byNamespace.set(namespace, [...(byNamespace.get(namespace) ?? []), finding]);
    }
    if (byNamespace.size) groups.push({ severity, namespaces: [...byNamespace].map(([namespace, items]) => ({ namespace, items })) });
  }
  return groups;
}

const plurals: Record<string, string> = {
  pod: 'pods',
  deployment: 'deployments',
  statefulset: 'statefulsets',
  daemonset: 'daemonsets',
  replicaset: 'replicasets',
  service: 'services',
  configmap: 'configmaps',
  secret: 'secrets',
  node: 'nodes',
  namespace: 'namespaces',
  ingress: 'ingresses',
  job: 'jobs',
  cronjob: 'cronjobs',
  persistentvolumeclaim: 'persistentvolumeclaims',
  persistentvolume: 'persistentvolumes',
};

/** The resource of an object page (`pods`) for a finding's kind (`Pod`); other kinds go by their kind, as the kind box takes them. */
export function resourceOfKind(kind: string): string {
  return plurals[kind.toLowerCase()] ?? kind;
}

/** The object page of a finding's object (or owner). */
export function targetOf(object: Finding['object']): ResourceTarget {
  return { resource: resourceOfKind(object.kind), namespace: object.namespace, name: object.name };
}

function sameKind(kind: string, resource: string): boolean {
  const lower = kind.toLowerCase();
  return resourceOfKind(lower) === resource.toLowerCase() || lower === resource.toLowerCase();
}

/** The findings about the object of a page: its own, and those of objects it owns (the crashing pods of a Deployment). */
export function findingsAbout(findings: readonly Finding[], target: ResourceTarget): Finding[] {
  const namespace = target.namespace ?? undefined;
  return findings.filter((finding) => {
    if (finding.object.namespace !== namespace) return false;
    const { object, owner } = finding;
    return (object.name === target.name && sameKind(object.kind, target.resource)) || (owner?.name === target.name && sameKind(owner.kind, target.resource));
  });
}

/** `Pod shop/web-1`. */
export function objectText(object: Finding['object']): string {
  return `${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`;
}

/** The question an investigation of a finding asks. */
export function investigationQuestion(finding: Finding): string {
  return `Why does ${objectText(finding.object)} show ${finding.reason} (${finding.message.slice(0, 2000)}), and what would fix it?`;
}
