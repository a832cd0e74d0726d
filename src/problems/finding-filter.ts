import type { Finding, Severity } from './finding.js';

/** What a caller narrows findings to. */
export interface FindingFilter {
  namespace?: string;
  severity?: Severity;
  kind?: string;
  /** The object's name, or its owner's. */
  name?: string;
  /** Include ignored findings. */
  ignored?: boolean;
}

/** Whether a finding passes the filter (kinds compare case-insensitively). */
export function matchesFilter(finding: Finding, filter: FindingFilter): boolean {
  if (finding.ignored && !filter.ignored) return false;
  if (filter.namespace !== undefined && finding.object.namespace !== filter.namespace) return false;
  if (filter.severity && finding.severity !== filter.severity) return false;
  return kindMatches(finding, filter.kind) && nameMatches(finding, filter.name);
}

function kindMatches(finding: Finding, kind: string | undefined): boolean {
  return !kind || finding.object.kind.toLowerCase() === kind.toLowerCase();
}

function nameMatches(finding: Finding, name: string | undefined): boolean {
  return !name || finding.object.name === name || finding.owner?.name === name;
}

const rank: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** Severity first (critical first), then namespace, kind, name and id: a stable order pages can follow. */
export function compareFindings(left: Finding, right: Finding): number {
  const keys = (finding: Finding): string[] => [
    String(rank[finding.severity]),
    finding.object.namespace ?? '',
    finding.object.kind,
    finding.object.name,
    finding.id,
  ];
  const [a, b] = [keys(left), keys(right)];
  for (let index = 0; index < a.length; index += 1) {
    const order = (a[index] ?? '').localeCompare(b[index] ?? '');
    if (order) return order;
  }
  return 0;
}
