import { useCallback, type ReactElement } from 'react';
import { useShell, type Shell } from '../core/shell.js';
import type { ActionName } from '../core/key-map.js';
import type { Row, Target } from '../api/types.js';
import { LoadedTableView } from './loaded-table-view.js';

interface Size {
  height: number;
  width: number;
  active: boolean;
}

const releaseOf = (row: Row, namespace: string | undefined): Target => ({ resource: 'helm', name: row.name, namespace: row.namespace ?? namespace });

async function rollback(shell: Shell, release: Target, revision?: number): Promise<void> {
  const object = `${release.name} (${release.namespace ?? ''})`;
  const question = revision ? shell.t('tui.confirm.helmRollbackTo', { object, revision }) : shell.t('tui.confirm.rollback', { object });
  if (!(await shell.confirm(question))) return;
  const done = await shell.write(() => shell.api.helmRollback(release, revision).then(() => true), {
    permission: 'execute_write',
    namespace: release.namespace,
    resource: 'secrets',
  });
  if (done) shell.notice(shell.t('tui.notice.done', { action: shell.t('tui.key.rollback'), object }));
}

async function releaseAction(shell: Shell, action: ActionName, row: Row | undefined): Promise<void> {
  if (action === 'allNamespaces') return shell.setNamespace(undefined);
  if (!row) return;
  const release = releaseOf(row, shell.namespace);
  if (action === 'history') return shell.push({ type: 'helm-history', release });
  if (action === 'rollback') return rollback(shell, release);
  if (action !== 'uninstall') return;
  const object = `${release.name} (${release.namespace ?? ''})`;
  if (!(await shell.confirm(shell.t('tui.confirm.uninstall', { object })))) return;
  const done = await shell.write(() => shell.api.helmUninstall(release).then(() => true), {
    permission: 'delete',
    namespace: release.namespace,
    resource: 'secrets',
  });
  if (done) shell.notice(shell.t('tui.notice.done', { action: shell.t('tui.key.uninstall'), object }));
}

/** `:helm`: releases (h history, b rollback, ctrl-d uninstall). */
export function HelmView(props: Size): ReactElement {
  const shell = useShell();
  const load = useCallback(async () => (await shell.api.helmReleases(shell.namespace)) as unknown as Row[], [shell.namespace]);
  const onAction = (action: ActionName, row: Row | undefined): Promise<void> =>
    releaseAction(shell, action, row).catch((error: unknown) => shell.report(error));
  return (
    <LoadedTableView
      view="helm"
      title={`helm(${shell.namespace ?? shell.t('tui.allNamespaces')})`}
      load={load}
      onAction={onAction}
      showNamespace={shell.namespace === undefined}
      {...props}
    />
  );
}

/** A release's history; `b` rolls back to the selected revision. */
export function HelmHistoryView(props: Size & { release: Target }): ReactElement {
  const shell = useShell();
  const load = useCallback(async () => {
    const items = await shell.api.helmHistory(props.release);
    return items.map((item) => ({ ...item, name: String(item.revision) }));
  }, [props.release]);
  const onAction = async (action: ActionName, row: Row | undefined): Promise<void> => {
    if (action === 'rollback' && row) await rollback(shell, props.release, Number(row.revision)).catch((error: unknown) => shell.report(error));
  };
  return <LoadedTableView view="helm-history" title={`${props.release.name}`} load={load} onAction={onAction} {...props} />;
}
