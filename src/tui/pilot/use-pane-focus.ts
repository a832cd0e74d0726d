import { useState } from 'react';
import type { Key } from 'ink';
import type { ActionName, ViewId } from '../core/key-map.js';
import type { SidePane } from '../core/side-pane.js';

/** Where the side pane (the AI pilot) is and which of table and pane takes the keys. */
export interface PaneFocus {
  /** The pane is drawn. */
  shown: boolean;
  /** The table (view stack) takes the keys; false while the pane has the focus. */
  tableActive: boolean;
  /** Below 100 columns only one of table and pane is drawn, full width: 'none' hides the table. */
  tableDisplay: 'flex' | 'none';
  /** The view whose keys `?` lists: the table's, or the pane's while it has the focus. */
  helpView(tableView: ViewId): ViewId;
  bodyHeight: number;
  bodyWidth: number;
  paneWidth: number;
  close(): void;
  /** Opens the pane with the focus in it. */
  open(): void;
  /** Handles `a` (open / close), tab (focus) and, in the pane, esc (the pane's own); true when the key was the pane's. */
  handles(input: string, key: Key, action: ActionName | undefined): boolean;
}

/** Body and side-pane sizes inside the border (header and footer take a line each); below 100 columns the pane takes the full width. */
export function paneLayout(columns: number, rows: number, open: boolean): { bodyHeight: number; bodyWidth: number; paneWidth: number; narrow: boolean } {
  const bodyHeight = Math.max(3, rows - 4);
  const narrow = columns < 100;
  if (open && narrow) return { bodyHeight, bodyWidth: columns - 2, paneWidth: columns - 2, narrow };
  const paneWidth = open ? Math.floor((columns - 2) * 0.45) : 0;
  return { bodyHeight, bodyWidth: Math.max(20, columns - 2 - paneWidth), paneWidth, narrow };
}

/** The side pane's open / focus state and the layout it leaves the table. */
export function usePaneFocus(pane: SidePane | undefined, columns: number, rows: number): PaneFocus {
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState(true);
  const shown = open && pane !== undefined;
  const { narrow, ...sizes } = paneLayout(columns, rows, shown);
  const tableActive = !(shown && focused);
  const handles = (input: string, key: Key, action: ActionName | undefined): boolean => {
    if (!pane) return false;
    if (input === pane.key || action === 'pilot') {
      setOpen(!open);
      setFocused(true);
      return true;
    }
    if (shown && key.tab) return (setFocused(!focused), true);
    return !tableActive && action === 'back';
  };
  return {
    shown: shown && !(narrow && tableActive),
    tableActive,
    tableDisplay: narrow && !tableActive ? 'none' : 'flex',
    helpView: (tableView) => (tableActive ? tableView : 'pilot'),
    ...sizes,
    close: () => setOpen(false),
    open: () => (setOpen(true), setFocused(true)),
    handles,
  };
}
