import { useCallback, type ReactElement } from 'react';
import { useShell, type Shell } from '../core/shell.js';
import type { ActionName } from '../core/key-map.js';
import type { AccessRequest, Row } from '../api/types.js';
import { LoadedTableView } from './loaded-table-view.js';

const scopeOf = (items: string[]): string => (items.length ? items.join(',') : '*');

/** One row per request: who asks, for what, where and how long, and its phase. */
function rowOf(item: AccessRequest): Row {
  return {
    name: item.id,
    requester: item.requester,
    phase: item.phase,
    permission: item.permission,
    cluster: item.cluster,
    namespaces: scopeOf(item.namespaces),
    resources: scopeOf(item.resources),
    ttl: item.ttl,
    reason: item.reason ?? '',
    created: item.createdAt,
  } as Row;
}

/** `y`/`n` on a request: a confirmation naming it, an optional comment for the requester, then the decision. */
async function decide(shell: Shell, verb: 'approve' | 'deny', row: Row): Promise<void> {
  const values = {
    id: row.name,
    requester: String(row.requester),
    permission: String(row.permission),
    namespaces: String(row.namespaces),
    cluster: String(row.cluster),
    ttl: String(row.ttl),
  };
  if (!(await shell.confirm(shell.t(verb === 'approve' ? 'tui.access.approveConfirm' : 'tui.access.denyConfirm', values)))) return;
  const comment = await shell.ask(shell.t('tui.access.comment', values));
  if (comment === undefined) return;
  try {
    const decided = await shell.api.decideAccessRequest(row.name, verb, comment.trim() || undefined);
    shell.notice(shell.t('tui.access.decided', { id: decided.id, phase: decided.phase }));
  } catch (error) {
    shell.report(error);
  }
}

/** `x` / `:requests`: the caller's just-in-time access requests (every user's for admins), newest first; admins approve with y, deny with n. */
export function AccessRequestsView(props: { height: number; width: number; active: boolean }): ReactElement {
  const shell = useShell();
  const load = useCallback(async (): Promise<Row[]> => (await shell.api.accessRequests()).map(rowOf), []);
  const onAction = async (action: ActionName, row: Row | undefined): Promise<void> => {
    if (!row) return;
    if (action === 'approveRequest') await decide(shell, 'approve', row);
    else if (action === 'denyRequest') await decide(shell, 'deny', row);
  };
  return <LoadedTableView view="access-requests" title={shell.t('tui.view.accessRequests')} load={load} onAction={onAction} {...props} />;
}
