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

/** kubectl-style short age: `40s`, `12m`, `3h`, `5d`, `2y`. */
export function shortAge(from: string | undefined, now: number): string {
  if (!from) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now - Date.parse(from)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 365 * 2) return `${days}d`;
  return `${Math.floor(days / 365)}y`;
}

/** `Nominated Node` → `nominatedNode`. */
export function columnKey(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0]?.toUpperCase() + word.slice(1).toLowerCase())).join('');
}

/** A list item: name, namespace (when namespaced), age, plus kubectl's columns for the kind. */
export type ResourceItem = Record<string, unknown> & { name: string; namespace?: string; age: string };

function cellValue(column: TableColumn, cell: unknown, now: number): unknown {
  if (column.type === 'date' && typeof cell === 'string') return shortAge(cell, now);
  return cell;
}

/** Converts one Table row into a list item. Age is computed now from creationTimestamp (cached rows never go stale). */
export function rowToItem(columns: TableColumn[], row: TableRow, now: number, kind: string): ResourceItem {
  const metadata = row.object?.metadata;
  const item: ResourceItem = { name: metadata?.name ?? String(row.cells[0] ?? ''), age: '' };
  if (metadata?.namespace) item.namespace = metadata.namespace;
  columns.forEach((column, index) => {
    const key = columnKey(column.name);
    if (key === 'name' || key === 'namespace') return;
    item[key] = cellValue(column, row.cells[index], now);
  });
  item.age = shortAge(metadata?.creationTimestamp, now);
  return kind === 'Pod' ? podItem(item) : item;
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
