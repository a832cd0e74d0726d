import { useState, type FormEvent, type ReactNode } from 'react';
import type { RevisionItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT, type Translate } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { formatTime } from '../../shared/time';
import { useApiQuery } from '../../shared/use-api-query';
import { objectParams, type ResourceTarget } from '../../shared/resource-target';
import { useAction } from '../../shared/use-action';
import { ConfirmDialog } from '../../shared/ConfirmDialog';

interface DeploymentObject {
  spec?: { replicas?: number };
}

/** The replicas of one side of a scale's change report. */
const replicasOf = (state: Record<string, unknown>): number | undefined => (typeof state.replicas === 'number' ? state.replicas : undefined);

/** Scale (replicas input) and rolling restart of a deployment. */
export function DeploymentScaleTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const deployment = useApiQuery('/api/k8s/{resource}/{name}', objectParams(target));
  const current = (deployment.data as DeploymentObject | undefined)?.spec?.replicas;
  const [replicas, setReplicas] = useState('');
  const body = { namespace: target.namespace ?? 'default', name: target.name };

  const { busy, error, message, act } = useAction(() => void deployment.refetch());

  const scale = (event: FormEvent): void => {
    event.preventDefault();
    void act(async () => {
      const result = await client.call('POST', '/api/deployment/scale', { body: { ...body, replicas: Number(replicas) } });
      return t('deploy.scaled', { before: replicasOf(result.before) ?? '?', after: replicasOf(result.after) ?? replicas });
    });
  };
  const [confirmingRestart, setConfirmingRestart] = useState(false);
  const restart = (): void =>
    void act(async () => {
      await client.call('POST', '/api/deployment/restart', { body });
      setConfirmingRestart(false);
      return t('deploy.restarted');
    });

  return (
    <div className="scale-tab">
      <ErrorNotice error={deployment.error} />
      {current !== undefined && <p>{t('deploy.current', { count: current })}</p>}
      <form className="inline-form" onSubmit={scale}>
        <label className="inline-field">
          <span>{t('deploy.replicas')}</span>
          <input
            type="number"
            min={0}
            max={10000}
            required
            value={replicas}
            placeholder={current === undefined ? '' : String(current)}
            onChange={(event) => setReplicas(event.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={busy || replicas === ''}>
          {t('deploy.scale')}
        </button>
      </form>
      <p>
        <button type="button" onClick={() => setConfirmingRestart(true)} disabled={busy}>
          {t('deploy.restart')}
        </button>
      </p>
      {confirmingRestart && (
        <ConfirmDialog
          title={t('deploy.restartTitle', { name: target.name })}
          confirmLabel={t('deploy.restart')}
          cancelLabel={t('deploy.cancel')}
          busy={busy}
          onConfirm={restart}
          onCancel={() => setConfirmingRestart(false)}
        >
          <p>{t('deploy.restartText', { name: target.name, namespace: body.namespace, count: current ?? 0 })}</p>
        </ConfirmDialog>
      )}
      {message && (
        <p className="notice notice-ok" role="status">
          {message}
        </p>
      )}
      <ErrorNotice error={error} />
    </div>
  );
}

/** The revision history's columns; `rollback` renders the last cell (absent for callers who may not write). */
function historyColumns(t: Translate, rollback?: (item: RevisionItem) => ReactNode): Column<RevisionItem>[] {
  const columns: Column<RevisionItem>[] = [
    {
      key: 'revision',
      header: t('deploy.revision'),
      cell: (item) => (
        <>
          {item.revision} {item.current && <span className="badge badge-read">{t('deploy.currentRevision')}</span>}
        </>
      ),
      sortValue: (item) => item.revision,
    },
    { key: 'images', header: t('deploy.images'), cell: (item) => item.images.join(', '), className: 'mono' },
    {
      key: 'created',
      header: t('deploy.created'),
      cell: (item) => (item.createdAt ? formatTime(item.createdAt) : ''),
      sortValue: (item) => item.createdAt ?? '',
    },
    { key: 'cause', header: t('deploy.cause'), cell: (item) => item.changeCause ?? '' },
  ];
  return rollback ? [...columns, { key: 'actions', header: t('deploy.actions'), cell: rollback }] : columns;
}

/** The confirmation of a rollback: it names the revision and its images. */
function RollbackDialog(props: { target: ResourceTarget; item: RevisionItem; busy: boolean; onConfirm: () => void; onCancel: () => void }): ReactNode {
  const t = useT();
  const { target, item } = props;
  return (
    <ConfirmDialog
      title={t('deploy.rollbackTitle', { name: target.name, revision: item.revision })}
      confirmLabel={t('deploy.rollback')}
      cancelLabel={t('deploy.cancel')}
      busy={props.busy}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      <p>
        {t('deploy.rollbackText', { name: target.name, namespace: target.namespace ?? 'default', revision: item.revision, images: item.images.join(', ') })}
      </p>
    </ConfirmDialog>
  );
}

/** What an action said: its success line and its error. */
function ActionNotices({ message, error }: { message: string | undefined; error: unknown }): ReactNode {
  return (
    <>
      {message && (
        <p className="notice notice-ok" role="status">
          {message}
        </p>
      )}
      <ErrorNotice error={error} />
    </>
  );
}

/** The history table, or what stands in for it while it loads or when there is none. */
function HistoryTable(props: { history: { data?: { items: RevisionItem[] }; isFetching: boolean }; rollback?: (item: RevisionItem) => ReactNode }): ReactNode {
  const t = useT();
  const items = props.history.data?.items ?? [];
  if (props.history.isFetching) return <p className="muted">{t('tab.loading')}</p>;
  if (props.history.data && items.length === 0) return <p className="muted">{t('deploy.noHistory')}</p>;
  return items.length > 0 ? <DataTable columns={historyColumns(t, props.rollback)} rows={items} rowKey={(item) => String(item.revision)} compact /> : null;
}

/** Revision history of a deployment, with Roll back on every revision but the current one (after a confirmation naming it). */
export function DeploymentHistoryTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const history = useApiQuery('/api/deployment/history', { query: { namespace: target.namespace ?? 'default', name: target.name } });
  const [chosen, setChosen] = useState<RevisionItem | undefined>(undefined);
  const { busy, error, message, act } = useAction(() => void history.refetch());
  const rollback = (item: RevisionItem): void =>
    void act(async () => {
      await client.call('POST', '/api/deployment/rollback', { body: { namespace: target.namespace ?? 'default', name: target.name, revision: item.revision } });
      setChosen(undefined);
      return t('deploy.rolledBack', { revision: item.revision });
    });
  const rollbackCell = (item: RevisionItem): ReactNode =>
    item.current ? null : (
      <button type="button" className="small-button" disabled={busy} onClick={() => setChosen(item)}>
        {t('deploy.rollback')}
      </button>
    );
  return (
    <div>
      <ErrorNotice error={history.error} />
      <HistoryTable history={history} rollback={client.current?.role === 'viewer' ? undefined : rollbackCell} />
      <ActionNotices message={message} error={error} />
      {chosen && <RollbackDialog target={target} item={chosen} busy={busy} onConfirm={() => rollback(chosen)} onCancel={() => setChosen(undefined)} />}
    </div>
  );
}
