import { createHash } from 'node:crypto';

export const severities = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof severities)[number];

/** The object a finding is about (or its owner). */
export interface ObjectRef {
  kind: string;
  namespace?: string;
  name: string;
}

/** What an analyzer says of one object: everything of a finding but what the engine adds (id, cluster, times). */
export interface FindingDraft {
  severity: Severity;
  /** A short machine-readable reason, e.g. `CrashLoopBackOff`. */
  reason: string;
  message: string;
  /** The status fields and Events the finding rests on, quoted. */
  evidence: string[];
  /** A read-only next step, e.g. `kubectl logs web-1 -n shop --previous`. */
  hint: string;
  /** Distinguishes two findings of the same reason on one object (e.g. the container). */
  part?: string;
}

/** One problem of one object of one cluster (docs/user-guide/problems.md). */
export interface Finding {
  id: string;
  cluster: string;
  analyzer: string;
  severity: Severity;
  object: ObjectRef;
  owner?: ObjectRef;
  reason: string;
  message: string;
  evidence: string[];
  since: string;
  lastSeen: string;
  hint: string;
  /** Why the finding is not counted or listed by default: the object's `pilothouse.dev/ignore-problems` value, or the `problems.ignore` rule. */
  ignored?: string;
}

/** A finding's id: stable while the same analyzer finds the same reason on the same object (and part) of the cluster. */
export function findingId(cluster: string, analyzer: string, object: ObjectRef, draft: Pick<FindingDraft, 'reason' | 'part'>): string {
  const key = [cluster, analyzer, object.kind, object.namespace ?? '', object.name, draft.reason, draft.part ?? ''].join('\u0000');
  return createHash('sha256').update(key).digest('hex').slice(0, 20);
}

/** Counts of findings by severity. */
export type SeverityCounts = Record<Severity, number>;

export function countBySeverity(findings: Iterable<Pick<Finding, 'severity'>>): SeverityCounts {
  const counts: SeverityCounts = { critical: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}

/** `kind/name -n namespace` as kubectl reads it. */
export function kubectlTarget(object: ObjectRef): string {
  return `${object.kind.toLowerCase()}/${object.name}${object.namespace ? ` -n ${object.namespace}` : ''}`;
}
