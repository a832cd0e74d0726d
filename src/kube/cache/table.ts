/** The meta.k8s.io/v1 Table format the API server prints resources in (kubectl's columns). */
export interface TableColumn {
  name: string;
  type: string;
  format?: string;
  priority?: number;
}

export interface ObjectMetadata {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  deletionTimestamp?: string;
}

export interface TableRow {
  cells: unknown[];
  object?: { metadata?: ObjectMetadata };
}

export interface Table {
  kind: 'Table';
  columnDefinitions?: TableColumn[];
  rows?: TableRow[];
  metadata?: { resourceVersion?: string };
}

export const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

/** kubectl-style age of `from` (ms since the epoch) and until when (ms) that text stays the same. */
function ageOf(from: number, now: number): { text: string; until: number } {
  const seconds = Math.max(0, Math.floor((now - from) / 1000));
  const step = (value: number, unitSeconds: number, suffix: string): { text: string; until: number } => ({
    text: `${value}${suffix}`,
    until: Math.max(now + 1, from + (value + 1) * unitSeconds * 1000),
  });
  if (seconds < 120) return step(seconds, 1, 's');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return step(minutes, 60, 'm');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return step(hours, 3600, 'h');
  const days = Math.floor(hours / 24);
  if (days < 365 * 2) return step(days, 86_400, 'd');
  const years = Math.floor(days / 365);
  return step(years, 365 * 86_400, 'y');
}

const unknownAge = { text: '<unknown>', until: Infinity };

function ageOfTimestamp(from: string | undefined, now: number): { text: string; until: number } {
  const time = from ? Date.parse(from) : Number.NaN;
  return Number.isNaN(time) ? unknownAge : ageOf(time, now);
}

/** kubectl-style short age: `40s`, `12m`, `3h`, `5d`, `2y`. */
export function shortAge(from: string | undefined, now: number): string {
  return ageOfTimestamp(from, now).text;
}

const columnKeys = new Map<string, string>();

/** `Nominated Node` → `nominatedNode` (computed once per column name). */
export function columnKey(name: string): string {
  let key = columnKeys.get(name);
  if (key === undefined) {
    const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
    key = words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0]?.toUpperCase() + word.slice(1).toLowerCase())).join('');
    if (columnKeys.size < 10_000) columnKeys.set(name, key);
  }
  return key;
}

/** A list item: name, namespace (when namespaced), age, plus kubectl's columns for the kind. */
export type ResourceItem = Record<string, unknown> & { name: string; namespace?: string; age: string };

/** An item made from a row, reused while the row object, its columns and every age text it shows stay the same. */
interface Converted {
  columns: TableColumn[];
  kind: string;
  /** When the first of the item's age texts changes (ms since the epoch). */
  until: number;
  item: ResourceItem;
}

/** Cached rows are replaced (never changed) when the watch delivers a new version, so the row object is the key. */
const converted = new WeakMap<TableRow, Converted>();

/** Makes a row's item; returns it with the time its first age text changes. */
function convert(columns: TableColumn[], row: TableRow, now: number): { item: ResourceItem; until: number } {
  const metadata = row.object?.metadata;
  const item: ResourceItem = { name: metadata?.name ?? String(row.cells[0] ?? ''), age: '' };
  if (metadata?.namespace) item.namespace = metadata.namespace;
  let until = Infinity;
  columns.forEach((column, index) => {
    const key = columnKey(column.name);
    if (key === 'name' || key === 'namespace') return;
    const cell = row.cells[index];
    if (column.type === 'date' && typeof cell === 'string') {
      const age = ageOfTimestamp(cell, now);
      item[key] = age.text;
      until = Math.min(until, age.until);
    } else item[key] = cell;
  });
  const age = ageOfTimestamp(metadata?.creationTimestamp, now);
  item.age = age.text;
  return { item, until: Math.min(until, age.until) };
}

/**
 * Converts one Table row into a list item. Age is computed now from creationTimestamp (cached rows never go
 * stale). The item is shared by every list built while it stays the same, and must not be changed.
 */
export function rowToItem(columns: TableColumn[], row: TableRow, now: number, kind: string): ResourceItem {
  const known = converted.get(row);
  if (known && known.columns === columns && known.kind === kind && now < known.until) return known.item;
  const { item, until } = convert(columns, row, now);
  const result = kind === 'Pod' ? podItem(item) : item;
  converted.set(row, { columns, kind, until, item: result });
  return result;
}

/** The contract's pod item: restarts as an integer (kubectl prints `2 (5m ago)`). */
function podItem(item: ResourceItem): ResourceItem {
  const restarts = Number.parseInt(String(item.restarts ?? '0'), 10);
  return {
    name: item.name,
    namespace: item.namespace,
    status: String(item.status ?? ''),
    ready: String(item.ready ?? '0/0'),
    restarts: Number.isNaN(restarts) ? 0 : restarts,
    age: item.age,
    node: item.node === '<none>' ? null : item.node,
    ip: item.ip === '<none>' ? null : item.ip,
  };
}
