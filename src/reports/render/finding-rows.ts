import type { Finding, ReportDocument, ReportSection } from '../document/document.js';

/** The columns of one finding, in the order of the CSV format (and the finding tables elsewhere). */
export const findingColumns = ['section', 'rule', 'severity', 'kind', 'namespace', 'name', 'title', 'why', 'fix'] as const;

/** One finding with the section it belongs to. */
export interface SectionFinding {
  section: ReportSection;
  finding: Finding;
}

/** Every finding of the document, section by section. */
export function allFindings(document: ReportDocument): SectionFinding[] {
  return document.sections.flatMap((section) => section.findings.map((finding) => ({ section, finding })));
}

/** A finding as the cells of {@link findingColumns}. */
export function findingCells({ section, finding }: SectionFinding): string[] {
  const { object } = finding;
  return [section.title, finding.rule, finding.severity, object.kind, object.namespace ?? '', object.name, finding.title, finding.why, finding.fix];
}

/** `kind namespace/name` (or `kind name` for cluster-scoped objects). */
export function objectLabel(finding: Finding): string {
  const { kind, name, namespace } = finding.object;
  return namespace ? `${kind} ${namespace}/${name}` : `${kind} ${name}`;
}

/** A human line about the scope: the namespace or the whole cluster, and what was left out. */
export function scopeLine(document: ReportDocument): string {
  const scope = document.scope.namespace ? `namespace ${document.scope.namespace}` : 'whole cluster';
  const omitted = document.scope.omittedNamespaces;
  if (omitted.length === 0) return `Scope: ${scope}`;
  return `Scope: ${scope}. Left out (not visible to ${document.requester}): ${omitted.join(', ')}`;
}

/** A section's status line when it could not be read. */
export function unavailableLine(section: ReportSection): string {
  return `Unavailable: ${section.unavailableReason ?? 'the data could not be read'}`;
}

/** Findings per severity, most severe first, for summaries. */
export function severityCounts(findings: readonly Finding[]): Array<[Finding['severity'], number]> {
  const order: Array<Finding['severity']> = ['critical', 'high', 'medium', 'low', 'info'];
  return order.map((severity) => [severity, findings.filter((finding) => finding.severity === severity).length]);
}
