import { useQuery } from '@tanstack/react-query';
import type { ResourceItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { itemKey } from '../../shared/item-columns';

interface UsageItem {
  name: string;
  namespace?: string;
  cpu: string;
  memory: string;
  cpuPercent?: number | null;
  memoryPercent?: number | null;
}

/** Metrics are samples (metrics-server scrapes every 15 s or so), so they are read again at that pace. */
const refreshMs = 15_000;
const paths: Record<string, string> = { pods: '/api/metrics/pod', nodes: '/api/metrics/node' };

const withPercent = (value: string, percent: number | null | undefined): string => (typeof percent === 'number' ? `${value} (${percent}%)` : value);

/** CPU and memory usage of the pods or nodes of a list (metrics.k8s.io), by row key; undefined for other kinds or without metrics. */
export function useUsage(resource: string, namespace: string): Map<string, Pick<UsageItem, 'cpu' | 'memory'>> | undefined {
  const client = useApi();
  const path = paths[resource];
  const usage = useQuery({
    queryKey: ['usage', resource, namespace],
    enabled: path !== undefined,
    refetchInterval: refreshMs,
    queryFn: async ({ signal }): Promise<{ items: UsageItem[] }> =>
      resource === 'pods' ? client.call('GET', '/api/metrics/pod', { query: { namespace }, signal }) : client.call('GET', '/api/metrics/node', { signal }),
  });
  if (!path || !usage.data) return undefined;
  const byKey = new Map<string, Pick<UsageItem, 'cpu' | 'memory'>>();
  for (const item of usage.data.items) {
    byKey.set(itemKey({ name: item.name, namespace: item.namespace }), {
      cpu: withPercent(item.cpu, item.cpuPercent),
      memory: withPercent(item.memory, item.memoryPercent),
    });
  }
  return byKey;
}

/** The items with `cpu` and `memory` cells added from the usage (rows without a sample get empty cells). */
export function withUsage(items: ResourceItem[], usage: Map<string, Pick<UsageItem, 'cpu' | 'memory'>> | undefined): ResourceItem[] {
  if (!usage) return items;
  return items.map((item) => ({ ...item, cpu: usage.get(itemKey(item))?.cpu ?? '', memory: usage.get(itemKey(item))?.memory ?? '' }));
}
