import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { readSse } from '../../api/sse';
import type { ResourceItem } from '../../api/types';
import { useApi } from '../../app/api-context';
import { useT } from '../../i18n';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useAction } from '../../shared/use-action';
import { useLoad } from '../../shared/use-load';
import { cellText, columnLabel, columnsOf, statusTone } from '../resources/columns';
import { objectPath, targetKey, type ResourceTarget } from '../resources/target';
import { applyDrainEvent, initialProgress, progressCounts, type DrainProgress, type PodStatus } from './drain-progress';

interface NodePods {
  items: ResourceItem[];
  total: number;
}

const podsPath = (name: string): string => `/api/nodes/${encodeURIComponent(name)}/pods`;

/** Pods scheduled on a node, with the pods list's columns. */
export function NodePodsTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback((signal: AbortSignal) => client.json<NodePods>('GET', podsPath(target.name), { signal }), [client, target]);
  const pods = useLoad(`${targetKey(target)}/pods`, load);
  const items = pods.data?.items ?? [];
  const columns = columnsOf(items);
  return (
    <div className="node-pods">
      <ErrorNotice error={pods.error} />
      {pods.loading && <p className="muted">{t('tab.loading')}</p>}
      {pods.data && <p className="muted small">{t('node.podsTotal', { count: pods.data.total })}</p>}
      {items.length > 0 && (
        <div className="table-wrap">
          <table className="data-table compact">
            <caption className="visually-hidden">{t('node.podsCaption', { node: target.name })}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {columnLabel(column)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={`${item.namespace ?? ''}/${item.name}`}>
                  {columns.map((column) => (
                    <td key={column} className={column === 'name' ? 'cell-name' : statusTone(column, item[column])}>
                      {cellText(item[column])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

interface NodeObject {
  spec?: { unschedulable?: boolean };
}

interface CordonResult {
  name: string;
  before?: { unschedulable?: boolean };
  after?: { unschedulable?: boolean };
}

const statusBadge: Record<PodStatus, string> = { evicted: 'badge-read', failed: 'badge-dangerous', skipped: 'badge-unknown' };

/** Cordon / Uncordon and Drain (with live progress) of a node; admins only (the API enforces it). */
export function NodeOperationsTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback((signal: AbortSignal) => client.json<NodeObject>('GET', objectPath(target), { signal }), [client, target]);
  const node = useLoad(targetKey(target), load);
  const unschedulable = node.data?.spec?.unschedulable === true;
  const { busy, error, message, act, dismiss } = useAction(() => node.reload());

  const cordon = (verb: 'cordon' | 'uncordon'): void =>
    void act(async () => {
      const result = await client.json<CordonResult>('POST', `/api/node/${verb}`, { body: { name: target.name } });
      const state = (value: boolean | undefined): string => t(value ? 'node.unschedulable' : 'node.schedulable');
      return t('node.cordonResult', { node: result.name, before: state(result.before?.unschedulable), after: state(result.after?.unschedulable) });
    });

  const [ignoreDaemonSets, setIgnoreDaemonSets] = useState(true);
  const [deleteLocalData, setDeleteLocalData] = useState(false);
  const [force, setForce] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [draining, setDraining] = useState(false);
  const [drainError, setDrainError] = useState<unknown>();
  const [progress, setProgress] = useState<DrainProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const drain = async (): Promise<void> => {
    setConfirming(false);
    setDraining(true);
    setDrainError(undefined);
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    try {
      const expected = await client
        .json<NodePods>('GET', podsPath(target.name), { signal: abort.signal })
        .then((pods) => pods.total)
        .catch(() => 0);
      setProgress(initialProgress(expected));
      const started = await client.json<{ id: string; node: string }>('POST', '/api/node/drain', {
        body: { name: target.name, ignoreDaemonSets, deleteLocalData, force },
        signal: abort.signal,
      });
      const response = await client.request('GET', `/api/node/drain/${encodeURIComponent(started.id)}`, { accept: 'text/event-stream', signal: abort.signal });
      if (response.body) {
        await readSse(
          response.body,
          (event) => {
            let data: unknown;
            try {
              data = JSON.parse(event.data);
            } catch {
              return;
            }
            setProgress((previous) => applyDrainEvent(previous ?? initialProgress(expected), event.event, data));
          },
          abort.signal,
        );
      }
    } catch (failure) {
      if (!abort.signal.aborted) setDrainError(failure);
    } finally {
      if (!abort.signal.aborted) {
        setDraining(false);
        node.reload();
      }
    }
  };

  const submitDrain = (event: FormEvent): void => {
    event.preventDefault();
    setConfirming(true);
  };

  const counts = progress ? progressCounts(progress) : { done: 0, total: 0 };
  const result = progress?.result;
  const flags = [ignoreDaemonSets && '--ignore-daemonsets', deleteLocalData && '--delete-emptydir-data', force && '--force'].filter(Boolean).join(' ');

  return (
    <div className="node-ops">
      <ErrorNotice error={node.error} />
      {node.data && <p>{t('node.state', { state: t(unschedulable ? 'node.unschedulable' : 'node.schedulable') })}</p>}
      <p className="inline-form">
        <button type="button" onClick={() => cordon('cordon')} disabled={busy || draining}>
          {t('node.cordon')}
        </button>
        <button type="button" onClick={() => cordon('uncordon')} disabled={busy || draining}>
          {t('node.uncordon')}
        </button>
      </p>
      {message && (
        <p className="notice notice-ok" role="status">
          {message}
        </p>
      )}
      <ErrorNotice error={error} onDismiss={dismiss} />

      <form className="drain-form" onSubmit={submitDrain} aria-labelledby="drain-heading">
        <h3 id="drain-heading">{t('node.drain')}</h3>
        <label className="checkbox-field">
          <input type="checkbox" checked={ignoreDaemonSets} onChange={(event) => setIgnoreDaemonSets(event.target.checked)} />
          {t('node.ignoreDaemonSets')}
        </label>
        <label className="checkbox-field">
          <input type="checkbox" checked={deleteLocalData} onChange={(event) => setDeleteLocalData(event.target.checked)} />
          {t('node.deleteLocalData')}
        </label>
        <label className="checkbox-field">
          <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} />
          {t('node.force')}
        </label>
        <button type="submit" className="danger" disabled={busy || draining}>
          {t('node.drainButton')}
        </button>
      </form>
      {confirming && (
        <ConfirmDialog
          title={t('node.drainTitle', { node: target.name })}
          confirmLabel={t('node.drainConfirm')}
          cancelLabel={t('delete.cancel')}
          danger
          onConfirm={() => void drain()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('node.drainBody', { node: target.name })}</p>
          <p className="mono small">
            kubectl drain {target.name} {flags}
          </p>
        </ConfirmDialog>
      )}
      <ErrorNotice error={drainError} onDismiss={() => setDrainError(undefined)} />

      {progress && (
        <section className="drain-progress" aria-label={t('node.progress')}>
          <div className="progress-line">
            <progress max={Math.max(counts.total, 1)} value={counts.done} aria-label={t('node.progress')} />
            <span className="small">{t('node.progressCount', { done: counts.done, total: counts.total })}</span>
            {draining && <span className="muted small">{t('node.draining')}</span>}
          </div>
          {progress.cordoned && <p className="muted small">{t('node.cordoned', { node: target.name })}</p>}
          {progress.pods.length > 0 && (
            <ul className="drain-pods" aria-live="polite">
              {progress.pods.map((pod) => (
                <li key={`${pod.namespace}/${pod.name}`}>
                  <span className={`badge ${statusBadge[pod.status]}`}>{t(`node.pod.${pod.status}`)}</span>{' '}
                  <span className="mono">{`${pod.namespace}/${pod.name}`}</span>
                  {pod.reason && <span className="muted small"> — {pod.reason}</span>}
                </li>
              ))}
            </ul>
          )}
          {result && (
            <div className={`notice ${result.status === 'completed' ? 'notice-ok' : 'notice-error'}`} role="status">
              <div>
                <strong>{t(`node.result.${result.status}`, { node: result.node })}</strong>{' '}
                {t('node.resultCounts', { evicted: result.evicted, failed: result.failed.length, skipped: result.skipped.length })}
                {result.message && <div>{result.message}</div>}
                {result.refused.length > 0 && (
                  <>
                    <div>{t('node.refusedPods')}</div>
                    <ul>
                      {result.refused.map((pod) => (
                        <li key={`${pod.namespace}/${pod.name}`}>
                          <span className="mono">{`${pod.namespace}/${pod.name}`}</span>: {pod.reason}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
                {result.failed.length > 0 && (
                  <ul>
                    {result.failed.map((pod) => (
                      <li key={`${pod.namespace}/${pod.name}`}>
                        <span className="mono">{`${pod.namespace}/${pod.name}`}</span>: {pod.reason}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </div>
          )}
        </section>
      )}
    </div>
  );
}
