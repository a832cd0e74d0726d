import type { components } from '@pilothouse/wire/types';

export type HistoryAnswer = components['schemas']['HistoryAnswer'];
export type HistorySeries = components['schemas']['HistorySeries'];

/** The ranges the picker offers (GET /api/metrics/history takes 15m..14d). */
export const historyRanges = ['15m', '1h', '6h', '24h', '7d', '14d'] as const;
export type HistoryRange = (typeof historyRanges)[number];

const kinds: Readonly<Record<string, 'pod' | 'workload' | 'node' | 'pvc'>> = {
  pods: 'pod',
  deployments: 'workload',
  statefulsets: 'workload',
  daemonsets: 'workload',
  replicasets: 'workload',
  nodes: 'node',
  persistentvolumeclaims: 'pvc',
};

/** The history kind of a resource type as the URL names it; undefined when it has no usage history. */
export function historyKindOf(resource: string): 'pod' | 'workload' | 'node' | 'pvc' | undefined {
  return kinds[resource];
}

/** `GET /api/metrics/history` for one object and range (the client adds `?cluster=`). */
export function historyPath(target: { resource: string; name: string; namespace?: string }, range: HistoryRange): string | undefined {
  const kind = historyKindOf(target.resource);
  if (!kind) return undefined;
  const query = new URLSearchParams({ kind, name: target.name, range });
  if (kind !== 'node' && target.namespace) query.set('namespace', target.namespace);
  return `/api/metrics/history?${query.toString()}`;
}

const binary = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A value in its series' unit, short: `0.25 cores`, `64.0 MiB`, `1.2 KiB/s`, `3`. */
export function formatValue(value: number | null | undefined, unit: HistorySeries['unit']): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (unit === 'cores') return `${value < 1 ? value.toFixed(3) : value.toFixed(2)} cores`;
  if (unit === 'count') return String(Math.round(value));
  let scaled = value;
  let index = 0;
  while (Math.abs(scaled) >= 1024 && index < binary.length - 1) {
    scaled /= 1024;
    index += 1;
  }
  return `${scaled.toFixed(1)} ${binary[index]}${unit === 'bytes/s' ? '/s' : ''}`;
}
