import type { ResourceItem } from '@pilothouse/wire/types';

/** Columns from the items' keys: name and namespace first, age last, the rest in first-seen order. */
export function columnsOf(items: readonly ResourceItem[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(item)) seen.add(key);
  const middle = [...seen].filter((key) => key !== 'name' && key !== 'namespace' && key !== 'age');
  const head = ['name', ...(seen.has('namespace') ? ['namespace'] : [])];
  return [...head, ...middle, ...(seen.has('age') ? ['age'] : [])];
}

/** `nominatedNode` → `NOMINATED NODE` (kubectl's header style). */
export function columnLabel(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toUpperCase();
}

/** A cell value as text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Whether every word of `filter` occurs (case-insensitive) in some cell of the item. */
export function matchesFilter(item: ResourceItem, columns: readonly string[], filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = columns.map((column) => cellText(item[column]).toLowerCase()).join('\u0000');
  return words.every((word) => text.includes(word));
}

/** A CSS class for status-like cells, so Running/Failed stand out. */
export function statusTone(column: string, value: unknown): string | undefined {
  if (column === 'type') return cellText(value) === 'Warning' ? 'tone-bad' : undefined;
  if (column !== 'status' && column !== 'phase') return undefined;
  const text = cellText(value).toLowerCase();
  if (/^(running|active|bound|ready|succeeded|completed)$/.test(text)) return 'tone-good';
  if (/(fail|error|crash|backoff|evicted|lost|notready|terminating|unknown)/.test(text)) return 'tone-bad';
  if (/(pending|creating|init)/.test(text)) return 'tone-warn';
  return undefined;
}

const singular: Record<string, string> = {
  pods: 'pod',
  deployments: 'deployment',
  statefulsets: 'statefulset',
  daemonsets: 'daemonset',
  replicasets: 'replicaset',
  services: 'service',
  configmaps: 'configmap',
  secrets: 'secret',
  nodes: 'node',
  namespaces: 'namespace',
  events: 'event',
  ingresses: 'ingress',
  jobs: 'job',
  cronjobs: 'cronjob',
  persistentvolumeclaims: 'persistentvolumeclaim',
  persistentvolumes: 'persistentvolume',
  serviceaccounts: 'serviceaccount',
};

/** `pods` → `pod` for the chat context's `<kind>/<name>` (other kinds are sent as typed). */
export function kindOf(resource: string): string {
  return singular[resource.toLowerCase()] ?? resource;
}

const unitSeconds: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, y: 31536000 };

/** `3d4h` (kubectl's age style) → seconds; `undefined` for anything else. */
export function durationSeconds(text: string): number | undefined {
  if (!/^(\d+[smhdy])+$/.test(text)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([smhdy])/g)) seconds += Number(amount) * (unitSeconds[unit ?? 's'] ?? 1);
  return seconds;
}

const quantityUnits: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  M: 1e6,
  G: 1e9,
};

/** `250m`, `1.5`, `64Mi` (a trailing ` (12%)` ignored) → a number; `undefined` for anything else. */
export function quantityValue(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(n|u|m|k|Ki|Mi|Gi|Ti|M|G)?(\s|$)/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * (quantityUnits[match[2] ?? ''] ?? 1);
}

/** What a cell sorts by: ages by their length, CPU and memory by amount, numbers numerically, the rest as text. */
export function sortValue(column: string, value: unknown): string | number | undefined {
  if (typeof value === 'number') return value;
  const text = cellText(value);
  if (column === 'age' || column === 'lastSeen' || column === 'firstSeen') return durationSeconds(text) ?? Number.MAX_SAFE_INTEGER;
  if (column === 'cpu' || column === 'memory') return quantityValue(text) ?? text;
  return text;
}
