import type { QueryOf } from '@pilothouse/wire/calls';
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

/** The query of `GET /api/metrics/history` (the client adds `?cluster=`). */
export type HistoryQuery = QueryOf<'GET', '/api/metrics/history'>;

/** The query of `GET /api/metrics/history` for one object and range; undefined when the kind has no usage history. */
export function historyQuery(target: { resource: string; name: string; namespace?: string }, range: HistoryRange): HistoryQuery | undefined {
  const kind = historyKindOf(target.resource);
  if (!kind) return undefined;
  return kind !== 'node' && target.namespace ? { kind, name: target.name, range, namespace: target.namespace } : { kind, name: target.name, range };
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

/** The query and range of a promql tool call's command line (`promql <query> [<range>]`); undefined for other lines. */
export function promqlCommand(command: string): { query: string; rangeSeconds: number } | undefined {
  const match = /^promql (.+?)(?: \[(\d+)(m|h|d)\])?$/s.exec(command);
  if (!match?.[1]) return undefined;
  const unit = { m: 60, h: 3600, d: 86_400 }[match[3] as 'm' | 'h' | 'd'] ?? 3600;
  return { query: match[1], rangeSeconds: match[2] ? Number(match[2]) * unit : 3600 };
}

/** A matrix answer's series as uPlot's aligned data: shared timestamps, one column per series (at most `max`). */
export function alignedSeries(result: unknown, max: number): { labels: string[]; times: number[]; columns: (number | null)[][] } {
  const series = (Array.isArray(result) ? result : []).slice(0, max) as { metric?: Record<string, string>; values?: [number, string][] }[];
  const times = [...new Set(series.flatMap((one) => (one.values ?? []).map(([time]) => time)))].sort((left, right) => left - right);
  const columns = series.map((one) => {
    const byTime = new Map((one.values ?? []).map(([time, value]) => [time, Number(value)]));
    return times.map((time) => byTime.get(time) ?? null);
  });
  const labels = series.map((one) =>
    Object.entries(one.metric ?? {})
      .filter(([key]) => key !== '__name__')
      .map(([key, value]) => `${key}=${value}`)
      .join(', '),
  );
  return { labels, times, columns };
}

/** One point of the overview's chart: the cluster's average CPU and memory use in percent of allocatable. */
export interface PercentSample {
  time: number;
  cpu: number | null;
  memory: number | null;
}

/**
 * The overview's chart from history: each node's `cpu` (cores) and `memory` (bytes) series against its allocatable,
 * averaged over the nodes that have a point at each time (ms), oldest first.
 */
export function averagePercentSamples(
  nodes: readonly { allocatableCpu: number | undefined; allocatableMemory: number | undefined; history: HistoryAnswer }[],
): PercentSample[] {
  const byTime = new Map<number, { cpu: number[]; memory: number[] }>();
  const add = (time: number, field: 'cpu' | 'memory', percent: number): void => {
    const entry = byTime.get(time) ?? { cpu: [], memory: [] };
    entry[field].push(percent);
    byTime.set(time, entry);
  };
  for (const node of nodes) {
    for (const field of ['cpu', 'memory'] as const) {
      const total = field === 'cpu' ? node.allocatableCpu : node.allocatableMemory;
      const series = node.history.series.find((one) => one.name === field);
      if (!total || !series) continue;
      for (const [time, value] of series.points) add(time, field, (value / total) * 100);
    }
  }
  const mean = (values: number[]): number | null => (values.length ? Math.round(values.reduce((sum, value) => sum + value, 0) / values.length) : null);
  return [...byTime.entries()]
    .sort(([left], [right]) => left - right)
    .map(([time, entry]) => ({ time: time * 1000, cpu: mean(entry.cpu), memory: mean(entry.memory) }));
}
