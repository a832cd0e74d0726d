import type { ResourceItem } from '@pilothouse/wire/types';

/** One row of `GET /api/metrics/node`. */
export type { NodeUsage } from '@pilothouse/wire/types';

/** A pod that needs attention, with the reason kubectl shows (and the scheduler's message for pending pods). */
export interface PodProblem {
  name: string;
  namespace: string;
  reason: string;
  restarts: string;
  message?: string;
  /** The list it belongs to when not pods (`deployments`). */
  kind?: string;
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** Crash-looping pods: the status says so, or the last container state was an error with restarts. */
export function crashLoopingPods(pods: readonly ResourceItem[]): PodProblem[] {
  return pods
    .filter((pod) => /crashloopbackoff|error|imagepullbackoff|errimagepull|oomkilled/i.test(text(pod.status)))
    .map((pod) => ({ name: pod.name, namespace: pod.namespace ?? '', reason: text(pod.status), restarts: text(pod.restarts) }));
}

/** Pending pods, with the scheduler's FailedScheduling message when a warning event says why. */
export function pendingPods(pods: readonly ResourceItem[], events: readonly ResourceItem[]): PodProblem[] {
  const why = new Map<string, string>();
  for (const event of events) {
    const object = text(event.object).toLowerCase();
    if (object.startsWith('pod/')) why.set(`${event.namespace ?? ''}/${object.slice(4)}`, `${text(event.reason)}: ${text(event.message)}`);
  }
  return pods
    .filter((pod) => /^(pending|containercreating|podinitializing|init:)/i.test(text(pod.status)))
    .map((pod) => ({
      name: pod.name,
      namespace: pod.namespace ?? '',
      reason: text(pod.status),
      restarts: text(pod.restarts),
      message: why.get(`${pod.namespace ?? ''}/${pod.name}`),
    }));
}

/** `2/3` → [2, 3]. */
function readyCounts(value: unknown): [number, number] | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text(value));
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** Deployments with fewer available (ready) replicas than desired. */
export function unavailableDeployments(deployments: readonly ResourceItem[]): { name: string; namespace: string; ready: string }[] {
  return deployments
    .filter((deployment) => {
      const counts = readyCounts(deployment.ready);
      return counts !== undefined && counts[0] < counts[1];
    })
    .map((deployment) => ({ name: deployment.name, namespace: deployment.namespace ?? '', ready: text(deployment.ready) }));
}

/** Warning events, the most recent first as the API lists them, at most `limit`. */
export function warningEvents(events: readonly ResourceItem[], limit: number): ResourceItem[] {
  return events.filter((event) => text(event.type) === 'Warning').slice(0, limit);
}

/** Nodes whose Ready condition is not True (kubectl's STATUS column). */
export function notReadyNodes(nodes: readonly ResourceItem[]): ResourceItem[] {
  return nodes.filter((node) => !/^Ready(,|$)/.test(text(node.status)));
}

/** The average of the known percentages, or null when none is known. */
export function averagePercent(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => typeof value === 'number');
  return known.length ? Math.round(known.reduce((sum, value) => sum + value, 0) / known.length) : null;
}

/** A list's path with a filter the list page applies (`?filter=`). */
export function listLink(kind: string, filter?: string): string {
  return `/resources/${kind}${filter ? `?filter=${encodeURIComponent(filter)}` : ''}`;
}

/** How many items a loaded list has (optionally of those `pick` keeps); `…` while it loads. */
export function countOf<T>(list: { items: T[] } | undefined, pick?: (items: T[]) => unknown[]): number | '…' {
  if (!list) return '…';
  return pick ? pick(list.items).length : list.items.length;
}

/** Kinds whose list name is not the lowercase kind plus `s`. */
const irregularPlurals: Record<string, string> = { ingress: 'ingresses', networkpolicy: 'networkpolicies', endpoints: 'endpoints' };

/** Kinds without a namespace (their events are recorded in `default`). */
const clusterScopedKinds: ReadonlySet<string> = new Set([
  'node',
  'namespace',
  'persistentvolume',
  'clusterrole',
  'clusterrolebinding',
  'storageclass',
  'customresourcedefinition',
]);

/** The object an event is about (its `object` column: `pod/web-1`), as the target of its page; undefined when unnamed. */
export function eventObjectTarget(event: ResourceItem): { resource: string; namespace?: string; name: string } | undefined {
  const match = /^([^/]+)\/(.+)$/.exec(text(event.object));
  if (!match) return undefined;
  const kind = (match[1] ?? '').toLowerCase().split('.')[0] ?? '';
  const resource = irregularPlurals[kind] ?? (kind.endsWith('s') ? `${kind}es` : kind.endsWith('y') ? `${kind.slice(0, -1)}ies` : `${kind}s`);
  return { resource, namespace: clusterScopedKinds.has(kind) ? undefined : event.namespace || undefined, name: match[2] ?? '' };
}
