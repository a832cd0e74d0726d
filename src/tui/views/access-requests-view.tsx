import { useCallback, type ReactElement } from 'react';
import { useShell } from '../core/shell.js';
import type { Row } from '../api/types.js';
import { LoadedTableView } from './loaded-table-view.js';

/** `x` / `:requests`: the caller's just-in-time access requests, newest first, with their phase. */
export function AccessRequestsView(props: { height: number; width: number; active: boolean }): ReactElement {
  const shell = useShell();
  const load = useCallback(async (): Promise<Row[]> => {
    const items = await shell.api.accessRequests();
    return items.map((item) => ({
      name: item.id,
      phase: item.phase,
      permission: item.permission,
      namespaces: item.namespaces.length ? item.namespaces : ['*'],
      resources: item.resources.length ? item.resources : ['*'],
      ttl: item.ttl,
      reason: item.reason ?? '',
      created: item.createdAt,
    }));
  }, []);
  return <LoadedTableView view="access-requests" title={shell.t('tui.view.accessRequests')} load={load} onAction={() => undefined} {...props} />;
}
