import type { AccessRequest, ClusterList, ClusterSummary, ResourceItem } from '@pilothouse/wire/types';

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** The cluster a page shows: the URL's `?cluster=` or, absent, the home cluster. */
export function currentClusterName(fromUrl: string, list: ClusterList | undefined): string {
  return fromUrl || list?.home || '';
}

/** The summary of one cluster by name (undefined for a name the service does not know). */
export function summaryOf(list: ClusterList | undefined, name: string): ClusterSummary | undefined {
  return list?.items.find((item) => item.name === name);
}

/** The dot of a cluster: reachable, down, or not known (yet, or a name the service does not know). */
export function clusterTone(summary: ClusterSummary | undefined): 'good' | 'bad' | 'unknown' {
  if (!summary) return 'unknown';
  return summary.reachable ? 'good' : 'bad';
}

/** Nodes whose Ready condition is True (kubectl's STATUS `Ready`, possibly `Ready,SchedulingDisabled`), of all. */
export function readyNodes(nodes: readonly ResourceItem[]): { ready: number; total: number } {
  return { ready: nodes.filter((node) => /^Ready(,|$)/.test(text(node.status))).length, total: nodes.length };
}

/** `2/3` → [2, 3]. */
function readyCounts(value: unknown): [number, number] | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text(value));
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** Pods that are not ready: not finished, and not Running with every container ready (kubectl's READY and STATUS). */
export function notReadyPods(pods: readonly ResourceItem[]): ResourceItem[] {
  return pods.filter((pod) => {
    const status = text(pod.status);
    if (status === 'Completed' || status === 'Succeeded') return false;
    const counts = readyCounts(pod.ready);
    return status !== 'Running' || (counts !== undefined && counts[0] < counts[1]);
  });
}

/** Access requests waiting for a decision. */
export function pendingRequests(requests: readonly AccessRequest[]): AccessRequest[] {
  return requests.filter((request) => request.phase === 'Pending');
}
