import { useRef, useState, type HTMLAttributes, type ReactNode } from 'react';
import { nextSort, sortRows, type SortState, type SortValue } from './sort-rows';
import { useCutCellTitles } from './use-cut-cell-titles';

/** One column of a `DataTable`: its header, how a row renders in it, and (optionally) how it sorts. */
export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  className?: string | ((row: T) => string | undefined);
  /** When set, the header is a button that sorts the rows by this value. */
  sortValue?: (row: T) => SortValue;
  /** The cell's text, when the table sizes its columns by their content (VirtualTable). */
  text?: (row: T) => string;
  /** A column that is never cut (a status, a percentage): it gets the width of its longest value. */
  important?: boolean;
}

export interface DataTableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Read by screen readers only. */
  caption?: string;
  compact?: boolean;
  /** Extra attributes of a row (`className`, `onClick`, `data-*`). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
}

const arrows = { ascending: '▲', descending: '▼' } as const;

/** A cell's class (fixed, or computed from the row). */
export function cellClass<T>(column: Column<T>, row: T): string | undefined {
  return typeof column.className === 'function' ? column.className(row) : column.className;
}

/** A column header; a sort button when the column sorts. */
export function HeaderCell<T>({ column, sort, onSort }: { column: Column<T>; sort: SortState | undefined; onSort: (key: string) => void }): ReactNode {
  if (!column.sortValue)
    return (
      <th scope="col" role="columnheader" data-column={column.key}>
        {column.header}
      </th>
    );
  const direction = sort?.key === column.key ? sort.direction : undefined;
  return (
    <th scope="col" role="columnheader" aria-sort={direction ?? 'none'} data-column={column.key}>
      <button type="button" className="sort-button" onClick={() => onSort(column.key)}>
        {column.header}
        <span className="sort-arrow" aria-hidden="true">
          {direction ? arrows[direction] : ''}
        </span>
      </button>
    </th>
  );
}

/**
 * Every table of the web UI: a header row, one row per item, sorting by a column's header (a button, so
 * keyboards reach it). Cells keep to one line; a table wider than its place scrolls sideways, and a cell
 * cut by its column (`details-cell`) names its full value on hover and focus. An `actions` column (and the audit's
 * details) stays in view at the right edge while the rest scrolls.
 */
export function DataTable<T>({ columns, rows, rowKey, caption, compact, rowProps }: DataTableProps<T>): ReactNode {
  const [sort, setSort] = useState<SortState>();
  const sortColumn = columns.find((column) => column.key === sort?.key);
  const sorted = sortRows(rows, sortColumn?.sortValue, sort);
  const wrap = useRef<HTMLDivElement>(null);
  useCutCellTitles(wrap);
  return (
    // Focusable, so a keyboard can scroll a wide table (axe: scrollable-region-focusable).
    <div ref={wrap} className="table-wrap" tabIndex={0} role="group" aria-label={caption}>
      <table className={compact ? 'data-table compact' : 'data-table'}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <HeaderCell key={column.key} column={column} sort={sort} onSort={(key) => setSort((current) => nextSort(current, key))} />
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column) => (
                <td key={column.key} className={cellClass(column, row)} data-column={column.key}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
