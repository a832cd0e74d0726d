import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cellClass, HeaderCell, type Column } from './DataTable';
import { nextSort, sortRows, type SortState } from './sort-rows';
import { nextIndex, tableKeyAction } from './table-keys';
import { useCutCellTitles } from './use-cut-cell-titles';
import './virtual-table.css';

interface VirtualTableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Read by screen readers only; also the scroll area's label. */
  caption: string;
  /** The key of the open row (highlighted). */
  selectedKey?: string;
  /** Enter on the cursor row, or a click. */
  onOpen: (row: T) => void;
}

const rowHeight = 34;

/** Rows read to size the columns (enough to find the long values; a 10,000-row list is not read whole). */
const sizedRows = 500;

/**
 * Columns sized by their content: each at least as wide as its longest value (in `ch`, capped: a name or an image
 * may be cut, an important column such as STATUS or a percentage is not), the rest of the width shared by length.
 */
export function gridTemplate<T>(columns: readonly Column<T>[], rows: readonly T[]): string {
  const sample = rows.slice(0, sizedRows);
  return columns
    .map((column, index) => {
      const header = typeof column.header === 'string' ? column.header.length : 6;
      const longest = sample.reduce((most, row) => Math.max(most, column.text?.(row).length ?? 0), header);
      const cap = column.important ? 48 : index === 0 ? 36 : 24;
      const floor = index === 0 ? 12 : 5;
      const width = Math.min(Math.max(longest, floor), cap);
      // Proportional text is a little wider than `ch` in capitals (CrashLoopBackOff); padding and the sort arrow come on top.
      return `minmax(calc(${Math.ceil(width * 1.08)}ch + 2.2rem), ${Math.max(width, 4)}fr)`;
    })
    .join(' ');
}

interface RowProps<T> {
  row: T;
  rowKey: string;
  index: number;
  start: number;
  columns: readonly Column<T>[];
  template: string;
  selected: boolean;
  active: boolean;
  onOpen: (row: T, key: string) => void;
}

/** One row; memoized, so scrolling renders only the rows that come into view and a live update only the rows that changed. */
function RowView<T>({ row, rowKey, index, start, columns, template, selected, active, onOpen }: RowProps<T>): ReactNode {
  const classes = [selected ? 'selected' : '', active ? 'active' : ''].filter(Boolean).join(' ');
  return (
    <tr
      role="row"
      aria-rowindex={index + 2}
      aria-current={selected ? 'true' : undefined}
      className={classes || undefined}
      data-key={rowKey}
      style={{ gridTemplateColumns: template, height: rowHeight, transform: `translateY(${start}px)` }}
      onClick={() => onOpen(row, rowKey)}
    >
      {columns.map((column) => (
        <td key={column.key} role="cell" className={cellClass(column, row)}>
          {column.cell(row)}
        </td>
      ))}
    </tr>
  );
}
const Row = memo(RowView) as typeof RowView;

/**
 * A sortable table that renders only the rows in view (TanStack Virtual), so 10,000 rows scroll
 * smoothly. Rows are keyed, so live updates keep the scroll position, the selection and the
 * keyboard cursor (j/k or arrows move it, Enter opens, Home/End jump). A cell wider than its column
 * ends in an ellipsis and names its full value on hover and focus.
 */
export function VirtualTable<T>({ columns, rows, rowKey, caption, selectedKey, onOpen }: VirtualTableProps<T>): ReactNode {
  const scroller = useRef<HTMLDivElement>(null);
  useCutCellTitles(scroller);
  const [sort, setSort] = useState<SortState>();
  const [cursorKey, setCursorKey] = useState<string>();
  const sortColumn = columns.find((column) => column.key === sort?.key);
  const sorted = useMemo(() => sortRows(rows, sortColumn?.sortValue, sort), [rows, sortColumn, sort]);
  // TanStack Virtual returns fresh functions each render by design; this component is not memoized.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    // Scroll updates render in React's normal batch instead of synchronously inside the scroll event.
    useFlushSync: false,
  });
  const template = useMemo(() => gridTemplate(columns, rows), [columns, rows]);
  const cursor = useMemo(() => (cursorKey === undefined ? -1 : sorted.findIndex((row) => rowKey(row) === cursorKey)), [cursorKey, sorted, rowKey]);
  const openRef = useRef(onOpen);
  openRef.current = onOpen;
  const [openRow] = useState(() => (row: T, key: string) => {
    setCursorKey(key);
    openRef.current(row);
  });

  const onKey = (event: KeyboardEvent<HTMLDivElement>): void => {
    const action = tableKeyAction(event.key, event.ctrlKey || event.metaKey || event.altKey);
    if (!action || (event.target as HTMLElement).tagName === 'BUTTON') return;
    event.preventDefault();
    if ('open' in action) {
      const row = sorted[cursor];
      if (row) onOpen(row);
      return;
    }
    const index = nextIndex(cursor, sorted.length, action);
    const row = sorted[index];
    if (!row) return;
    setCursorKey(rowKey(row));
    virtualizer.scrollToIndex(index, { align: 'auto' });
  };

  return (
    <div ref={scroller} className="virtual-scroll" tabIndex={0} role="region" aria-label={caption} onKeyDown={onKey}>
      <table className="data-table virtual-table" role="table" aria-rowcount={sorted.length + 1}>
        <caption className="visually-hidden">{caption}</caption>
        <thead role="rowgroup">
          <tr role="row" style={{ gridTemplateColumns: template }}>
            {columns.map((column) => (
              <HeaderCell key={column.key} column={column} sort={sort} onSort={(key) => setSort((current) => nextSort(current, key))} />
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = sorted[item.index] as T;
            const key = rowKey(row);
            return (
              <Row
                key={key}
                row={row}
                rowKey={key}
                index={item.index}
                start={item.start}
                columns={columns}
                template={template}
                selected={key === selectedKey}
                active={item.index === cursor}
                onOpen={openRow}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
