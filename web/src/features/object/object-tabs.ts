import type { Role } from '@pilothouse/wire/types';

/** The tabs of an object's page; each is also the last part of the page's URL. */
export const objectTabs = ['summary', 'yaml', 'describe', 'events', 'related', 'logs', 'terminal', 'scale', 'history', 'nodePods', 'nodeOps', 'usage'] as const;
export type ObjectTab = (typeof objectTabs)[number];

/** The tabs an object of this resource type shows to this role (logs and terminal for pods; terminal needs write access). */
export function tabsFor(resource: string, role: Role | undefined): ObjectTab[] {
  const common: ObjectTab[] = ['summary', 'yaml', 'describe', 'events', 'related'];
  if (resource === 'pods') return [...common, 'logs', ...(role === 'viewer' || !role ? [] : (['terminal'] as ObjectTab[])), 'usage'];
  if (resource === 'deployments') return [...common, 'scale', 'history', 'usage'];
  if (resource === 'nodes') return [...common, 'nodePods', ...(role === 'admin' ? (['nodeOps'] as ObjectTab[]) : []), 'usage'];
  // Usage history (issue 36): the kinds GET /api/metrics/history answers.
  if (['statefulsets', 'daemonsets', 'replicasets', 'persistentvolumeclaims'].includes(resource)) return [...common, 'usage'];
  return common;
}

/** The tab a URL names, when the object has it; otherwise the first (Summary). */
export function pickTab(tabs: readonly ObjectTab[], wanted: string | undefined): ObjectTab {
  return tabs.find((tab) => tab === wanted) ?? tabs[0] ?? 'summary';
}
