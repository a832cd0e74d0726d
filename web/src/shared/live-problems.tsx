import { createContext, useContext, type ReactNode } from 'react';
import type { Finding } from '@pilothouse/wire/types';
import { useApi } from './api-context';
import { useLiveStream, type LiveStream } from './use-live-stream';

const rank: Record<Finding['severity'], number> = { critical: 0, warning: 1, info: 2 };

/** The server's order of findings (critical first, then namespace, kind, name, id). */
export function compareFindings(left: Finding, right: Finding): number {
  return (
    rank[left.severity] - rank[right.severity] ||
    (left.object.namespace ?? '').localeCompare(right.object.namespace ?? '') ||
    left.object.kind.localeCompare(right.object.kind) ||
    left.object.name.localeCompare(right.object.name) ||
    left.id.localeCompare(right.id)
  );
}

/** How the live stream of findings is keyed and ordered. */
const findingShape = { keyOf: (finding: Finding): string => finding.id, order: compareFindings };

/** The navigation's count: what needs someone (critical and warning; ignored ones are not streamed). */
export function urgentCount(findings: readonly Finding[]): number {
  return findings.filter((finding) => finding.severity !== 'info' && !finding.ignored).length;
}

/** The fields of a snapshot of `GET /api/problems/watch` besides its items. */
interface ProblemSnapshot {
  total: number;
  counts: Record<Finding['severity'], number>;
  revision: string;
}

export type LiveProblems = LiveStream<Finding, ProblemSnapshot>;

const ProblemsContext = createContext<LiveProblems | undefined>(undefined);
const none: LiveProblems = { items: undefined, snapshot: undefined, error: undefined, loading: true, updatedAt: undefined, reload: () => undefined };

/**
 * The cluster's findings the caller may see, live (`GET /api/problems/watch`, the live lists' stream), followed once
 * for the whole shell: the navigation's count, the Problems page and every object page's banner read the same stream
 * (one connection, not one per reader; the browser allows few per host).
 */
export function ProblemsProvider({ children }: { children: ReactNode }): ReactNode {
  const live = useLiveStream<Finding, ProblemSnapshot>(useApi(), '/api/problems/watch', {}, findingShape);
  return <ProblemsContext.Provider value={live}>{children}</ProblemsContext.Provider>;
}

/** The live findings of the shell's cluster (loading outside a ProblemsProvider). */
export function useProblems(): LiveProblems {
  return useContext(ProblemsContext) ?? none;
}
