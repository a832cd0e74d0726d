import { useEffect, useRef, useState } from 'react';
import { useInput } from 'ink';
import type { Row } from '../api/types.js';
import { scrollOffset } from './resource-table.js';

export interface RowCursor {
  selected: number;
  offset: number;
  row: Row | undefined;
  /** Moves the selection to a row (a row just created). */
  select(index: number): void;
}

const keyOf = (row: Row | undefined): string | undefined => (row ? `${row.namespace ?? ''}/${row.name}` : undefined);

type Arrows = { upArrow: boolean; downArrow: boolean; pageUp: boolean; pageDown: boolean; home: boolean; end: boolean };

function moved(input: string, key: Arrows, page: number): number | 'top' | 'bottom' | undefined {
  const steps: [boolean, number | 'top' | 'bottom'][] = [
    [key.upArrow || input === 'k', -1],
    [key.downArrow || input === 'j', 1],
    [key.pageUp, -page],
    [key.pageDown, page],
    [key.home || input === 'g', 'top'],
    [key.end || input === 'G', 'bottom'],
  ];
  return steps.find(([matches]) => matches)?.[1];
}

/**
 * Selection and scroll of a row list: arrows, j/k, pages, g/G. When rows change (live updates),
 * the selected row stays selected (found again by namespace/name) and the scroll position stays.
 */
export function useRowCursor(rows: Row[], height: number, active: boolean): RowCursor {
  const [selected, setSelectedState] = useState(0);
  // Keys arriving before a redraw move from the latest position, not the rendered one.
  const latest = useRef(0);
  const setSelected = (index: number): void => {
    latest.current = index;
    setSelectedState(index);
  };
  const offset = useRef(0);
  const selectedKey = useRef<string | undefined>(undefined);
  useEffect(() => {
    const index = selectedKey.current === undefined ? -1 : rows.findIndex((row) => keyOf(row) === selectedKey.current);
    if (index >= 0 && index !== selected) setSelected(index);
    else if (index < 0 && selected >= rows.length) setSelected(Math.max(0, rows.length - 1));
  }, [rows]);
  useInput(
    (input, key) => {
      const step = moved(input, key, Math.max(1, height - 1));
      if (step === undefined || rows.length === 0) return;
      const next = step === 'top' ? 0 : step === 'bottom' ? rows.length - 1 : Math.max(0, Math.min(rows.length - 1, latest.current + step));
      selectedKey.current = keyOf(rows[next]);
      setSelected(next);
    },
    { isActive: active },
  );
  const current = Math.min(selected, Math.max(0, rows.length - 1));
  if (selectedKey.current === undefined) selectedKey.current = keyOf(rows[current]);
  offset.current = scrollOffset(current, offset.current, height, rows.length);
  const select = (index: number): void => {
    selectedKey.current = keyOf(rows[index]);
    setSelected(index);
  };
  return { selected: current, offset: offset.current, row: rows[current], select };
}
