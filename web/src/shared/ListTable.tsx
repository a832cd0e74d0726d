import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './DataTable';

/** A list's table once loaded: the `empty` text when it has no rows, the table when it has; nothing while loading. */
export function ListTable<T>({ rows, empty, ...table }: Omit<DataTableProps<T>, 'rows'> & { rows: T[] | undefined; empty: string }): ReactNode {
  if (!rows) return null;
  if (rows.length === 0) return <p className="muted pad">{empty}</p>;
  return <DataTable {...table} rows={rows} />;
}
