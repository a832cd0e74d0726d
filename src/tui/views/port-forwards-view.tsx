import { useCallback, type ReactElement } from 'react';
import { useShell, type Shell } from '../core/shell.js';
import type { ActionName } from '../core/key-map.js';
import type { PortForward, Row } from '../api/types.js';
import { LoadedTableView } from './loaded-table-view.js';

/** What a forward goes to, as people name it: `service/name:port` for a Service's, else `pod/name:port`. */
export function forwardTarget(forward: Pick<PortForward, 'pod' | 'podPort' | 'service'>): string {
  return forward.service ? `service/${forward.service}:${forward.podPort}` : `pod/${forward.pod}:${forward.podPort}`;
}

/** One row per forward: its namespace, target, local address, status and who started it. */
function rowOf(forward: PortForward): Row {
  return {
    name: forward.id,
    namespace: forward.namespace,
    target: forwardTarget(forward),
    address: forward.address ?? (forward.localPort ? `127.0.0.1:${forward.localPort}` : ''),
    status: forward.status,
    cluster: forward.cluster,
    requester: forward.requester ?? '',
    message: forward.message ?? '',
  } as Row;
}

/** ctrl-d on a forward: a confirmation naming it, then Stop. */
async function stop(shell: Shell, row: Row): Promise<void> {
  const values = { id: row.name, target: `${String(row.namespace)}/${String(row.target)}`, address: String(row.address) };
  if (!(await shell.confirm(shell.t('tui.forwards.stopConfirm', values)))) return;
  try {
    await shell.api.stopPortForward(row.name);
    shell.notice(shell.t('tui.forwards.stopped', values));
  } catch (error) {
    shell.report(error);
  }
}

/** `:pf` / `:forwards`: the caller's port forwards (every user's for admins) across namespaces and clusters; ctrl-d stops one. */
export function PortForwardsView(props: { height: number; width: number; active: boolean }): ReactElement {
  const shell = useShell();
  const load = useCallback(async (): Promise<Row[]> => (await shell.api.portForwards()).map(rowOf), []);
  const onAction = async (action: ActionName, row: Row | undefined): Promise<void> => {
    if (row && action === 'stopForward') await stop(shell, row);
  };
  return <LoadedTableView view="port-forwards" title={shell.t('tui.view.portForwards')} load={load} onAction={onAction} showNamespace {...props} />;
}
