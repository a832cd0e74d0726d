import { Box, Text, useInput } from 'ink';
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { useShell } from '../core/shell.js';
import { actionFor, type ActionName, type ViewId } from '../core/key-map.js';
import { columnsOf } from '../core/columns.js';
import { filterRows } from '../core/filter.js';
import { ResourceTable } from '../components/resource-table.js';
import { SearchLine } from '../components/search-line.js';
import { useCapturedLine } from '../components/captured-line.js';
import { useRowCursor } from '../components/use-row-cursor.js';
import type { Row } from '../api/types.js';
import { headerOf } from './table-view.js';

export interface LoadedTableViewProps {
  view: ViewId;
  title: string;
  /** Reads the rows; called again every `refreshMs` and after each action. */
  load: () => Promise<Row[]>;
  onAction(action: ActionName, row: Row | undefined): Promise<void> | void;
  height: number;
  width: number;
  active: boolean;
  showNamespace?: boolean;
}

const refreshMs = 5_000;

/** A table of rows read from a list endpoint without a live stream (helm releases and history, access requests), re-read every few seconds. */
export function LoadedTableView(props: LoadedTableViewProps): ReactElement {
  const shell = useShell();
  const [loaded, setLoaded] = useState<Row[] | undefined>(undefined);
  const [filter, setFilter] = useState('');
  const line = useCapturedLine(shell);
  const typing = line.open;
  const [round, setRound] = useState(0);
  useEffect(() => {
    let stopped = false;
    const read = (): void => {
      props.load().then(
        (rows) => !stopped && setLoaded(rows),
        (error: unknown) => !stopped && shell.report(error),
      );
    };
    read();
    const timer = setInterval(read, refreshMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [props.load, round]);
  const rows = useMemo(() => filterRows(loaded ?? [], filter), [loaded, filter]);
  const height = Math.max(1, props.height - 2 - (typing ? 1 : 0));
  const cursor = useRowCursor(rows, height, props.active && !typing);
  const columns = useMemo(() => columnsOf(rows, { showNamespace: props.showNamespace ?? false, header: (key) => headerOf(shell, key) }), [rows, shell]);
  useInput(
    (input, key) => {
      const action = actionFor(props.view, shell, input, key);
      if (action === 'filter') {
        line.start();
      } else if (action) void Promise.resolve(props.onAction(action, cursor.row)).then(() => setRound((value) => value + 1));
    },
    { isActive: props.active && !typing },
  );
  const stop = line.stop;
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {props.title}[{loaded === undefined ? shell.t('tui.loading') : rows.length}]{filter ? ` /${filter}` : ''}
      </Text>
      {loaded !== undefined && rows.length === 0 ? (
        <Text dimColor>{shell.t('tui.empty')}</Text>
      ) : (
        <ResourceTable columns={columns} rows={rows} selected={cursor.selected} offset={cursor.offset} height={height} width={props.width} />
      )}
      {typing ? <SearchLine label="/" initial={filter} onChange={setFilter} onSubmit={stop} onCancel={() => (setFilter(''), stop())} /> : null}
    </Box>
  );
}
