/** A column's sort order; `undefined` keeps the rows as the server sent them. */
export interface SortState {
  key: string;
  direction: 'ascending' | 'descending';
}

export type SortValue = string | number | undefined;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Compares two sort values: numbers numerically, text with numbers inside in natural order, empty last. */
export function compareValues(left: SortValue, right: SortValue): number {
  if (left === right) return 0;
  if (left === undefined || left === '') return 1;
  if (right === undefined || right === '') return -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return collator.compare(String(left), String(right));
}

/** The rows in the order of `sort` (stable; empty values last in both directions). */
export function sortRows<T>(rows: readonly T[], valueOf: ((row: T) => SortValue) | undefined, sort: SortState | undefined): readonly T[] {
  if (!sort || !valueOf) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const keyed = rows.map((row, index) => ({ row, index, value: valueOf(row) }));
  keyed.sort((a, b) => {
    const emptyA = a.value === undefined || a.value === '';
    const emptyB = b.value === undefined || b.value === '';
    if (emptyA || emptyB) return emptyA === emptyB ? a.index - b.index : emptyA ? 1 : -1;
    return sign * compareValues(a.value, b.value) || a.index - b.index;
  });
  return keyed.map((entry) => entry.row);
}

/** The next state when a column's header is activated: ascending, then descending, then ascending again. */
export function nextSort(current: SortState | undefined, key: string): SortState {
  if (current?.key === key && current.direction === 'ascending') return { key, direction: 'descending' };
  return { key, direction: 'ascending' };
}
