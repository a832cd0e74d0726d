import type { ReactNode } from 'react';
import type { ResourceItem } from '@pilothouse/wire/types';
import type { Column } from './DataTable';
import { cellText, columnLabel, sortValue, statusTone } from './columns';

/** A list item's row key: namespace/name. */
export const itemKey = (item: ResourceItem): string => `${item.namespace ?? ''}/${item.name}`;

/** Columns never cut: what a row's state is (status, readiness, restarts, age) and the use percentages of pods and nodes. */
const importantColumns: ReadonlySet<string> = new Set(['status', 'ready', 'restarts', 'age', 'cpu', 'memory', 'phase', 'type', 'available', 'upToDate']);

/** `DataTable` columns for list items (the API's column keys); `nameCell` renders the name, plain text by default. */
export function itemColumns(keys: readonly string[], nameCell: (item: ResourceItem) => ReactNode = (item) => item.name): Column<ResourceItem>[] {
  return keys.map((key) => ({
    key,
    header: columnLabel(key),
    cell: key === 'name' ? nameCell : (item) => cellText(item[key]),
    className: key === 'name' ? 'cell-name' : (item) => statusTone(key, item[key]),
    sortValue: (item) => sortValue(key, item[key]),
    text: key === 'name' ? (item) => item.name : (item) => cellText(item[key]),
    important: importantColumns.has(key),
  }));
}
