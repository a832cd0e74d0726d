import { Box, Text, useInput } from 'ink';
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { useShell, type Shell } from '../core/shell.js';
import { actionFor, type ActionName, type ViewId } from '../core/key-map.js';
import { columnsOf } from '../core/columns.js';
import { filterRows, parseFilter } from '../core/filter.js';
import { ResourceTable } from '../components/resource-table.js';
import { SearchLine } from '../components/search-line.js';
import { useCapturedLine } from '../components/captured-line.js';
import { useRowCursor } from '../components/use-row-cursor.js';
import { runRowAction } from '../actions/row-actions.js';
import { useLiveRows } from './use-live-rows.js';
import type { Row } from '../api/types.js';

export interface TableViewProps {
  view: ViewId;
  resource: string;
  title: string;
  namespaced: boolean;
  height: number;
  width: number;
  active: boolean;
}

/** The time, re-read every `everyMs` (ages count on between updates). */
function useClock(everyMs: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A column header from the catalogue (`tui.column.<key>`), else the key in capitals. */
export function headerOf(shell: Pick<Shell, 't'>, key: string): string {
  const label = shell.t(`tui.column.${key}`);
  return label === `tui.column.${key}` ? key.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase() : label;
}

function handleAction(shell: Shell, action: ActionName, props: TableViewProps, row: Row | undefined): void {
  if (action === 'allNamespaces') return shell.setNamespace(undefined);
  if (action === 'open' && row && props.view === 'namespaces') {
    shell.setNamespace(row.name);
    return shell.push({ type: 'table', view: 'pods', resource: 'pods', title: 'pods', namespaced: true });
  }
  // Cluster-scoped kinds (nodes, namespaces) have no namespace to name or send.
  if (row) void runRowAction(shell, action, { resource: props.resource, row, namespace: props.namespaced ? shell.namespace : undefined });
}

/** The `Pods(default)[12] /web` line above a table. */
function titleLine(shell: Shell, props: TableViewProps, count: number | undefined, filter: string): string {
  const scope = props.namespaced ? (shell.namespace ?? shell.t('tui.allNamespaces')) : '';
  const total = count === undefined ? shell.t('tui.loading') : String(count);
  return `${props.title}${scope ? `(${scope})` : ''}[${total}]${filter ? ` /${filter}` : ''}`;
}

/** A live list of any kind: SSE rows, `/` filter (text or `-l` selector), k9s row keys. */
export function TableView(props: TableViewProps): ReactElement {
  const shell = useShell();
  const [filterInput, setFilterInput] = useState('');
  const [draft, setDraft] = useState('');
  const line = useCapturedLine(shell);
  const typing = line.open;
  const now = useClock(5_000);
  // The text part filters as it is typed; a label selector goes to the server once Enter is pressed.
  const text = parseFilter(typing ? draft : filterInput).text;
  const namespace = props.namespaced ? shell.namespace : undefined;
  const live = useLiveRows(shell, props.resource, namespace, parseFilter(filterInput).labelSelector);
  const rows = useMemo(() => filterRows(live ?? [], text), [live, text]);
  const tableHeight = Math.max(1, props.height - 2 - (typing ? 1 : 0));
  const cursor = useRowCursor(rows, tableHeight, props.active && !typing);
  const columns = useMemo(
    () => columnsOf(rows, { showNamespace: props.namespaced && namespace === undefined, header: (key) => headerOf(shell, key) }),
    [rows, namespace, shell],
  );
  useInput(
    (input, key) => {
      const action = actionFor(props.view, shell, input, key);
      if (action === 'filter') {
        setDraft('');
        line.start();
      } else if (action) handleAction(shell, action, props, cursor.row);
    },
    { isActive: props.active && !typing },
  );
  const stopTyping = line.stop;
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {titleLine(shell, props, live === undefined ? undefined : rows.length, filterInput)}
      </Text>
      {live !== undefined && rows.length === 0 ? (
        <Text dimColor>{shell.t('tui.empty')}</Text>
      ) : (
        <ResourceTable columns={columns} rows={rows} selected={cursor.selected} offset={cursor.offset} height={tableHeight} width={props.width} now={now} />
      )}
      {typing ? (
        <SearchLine
          label="/"
          initial=""
          onChange={setDraft}
          onSubmit={(value) => {
            setFilterInput(value.trim());
            stopTyping();
          }}
          onCancel={() => {
            setFilterInput('');
            stopTyping();
          }}
        />
      ) : null}
    </Box>
  );
}
