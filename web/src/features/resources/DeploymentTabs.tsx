import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import type { RevisionItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT, type Translate } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { formatTime } from '../../shared/time';
import { useLoad } from '../../shared/use-load';
import { objectPath, targetKey, type ResourceTarget } from '../../shared/resource-target';
import { useAction } from '../../shared/use-action';

interface DeploymentObject {
  spec?: { replicas?: number };
}

interface ActionResult {
  before?: { replicas?: number };
  after?: { replicas?: number };
}

/** Scale (replicas input) and rolling restart of a deployment. */
export function DeploymentScaleTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback(
    (signal: AbortSignal) => client.json<DeploymentObject>('GET', objectPath(target), { query: { namespace: target.namespace }, signal }),
    [client, target],
  );
  const deployment = useLoad(targetKey(target), load);
  const current = deployment.data?.spec?.replicas;
  const [replicas, setReplicas] = useState('');
  const body = { namespace: target.namespace ?? 'default', name: target.name };

  const { busy, error, message, act } = useAction(() => deployment.reload());

  const scale = (event: FormEvent): void => {
    event.preventDefault();
    void act(async () => {
      const result = await client.json<ActionResult>('POST', '/api/deployment/scale', { body: { ...body, replicas: Number(replicas) } });
      return t('deploy.scaled', { before: result.before?.replicas ?? '?', after: result.after?.replicas ?? replicas });
    });
  };
  const restart = (): void =>
    void act(async () => {
      await client.json('POST', '/api/deployment/restart', { body });
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
        <button type="button" onClick={restart} disabled={busy}>
          {t('deploy.restart')}
        </button>
      </p>
      {message && (
        <p className="notice notice-ok" role="status">
          {message}
        </p>
      )}
      <ErrorNotice error={error} />
    </div>
  );
}

/** The revision history's columns. */
function historyColumns(t: Translate): Column<RevisionItem>[] {
  return [
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
}

/** Revision history of a deployment. */
export function DeploymentHistoryTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback(
    (signal: AbortSignal) =>
      client.json<{ items: RevisionItem[] }>('GET', '/api/deployment/history', { query: { namespace: target.namespace, name: target.name }, signal }),
    [client, target],
  );
  const history = useLoad(`${targetKey(target)}/history`, load);
  const items = history.data?.items ?? [];
  return (
    <div>
      <ErrorNotice error={history.error} />
      {history.loading && <p className="muted">{t('tab.loading')}</p>}
      {history.data && items.length === 0 && <p className="muted">{t('deploy.noHistory')}</p>}
      {items.length > 0 && <DataTable columns={historyColumns(t)} rows={items} rowKey={(item) => String(item.revision)} compact />}
    </div>
  );
}
