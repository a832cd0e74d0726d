import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ClusterSummary } from '@pilothouse/wire/types';
import { errorLine } from '@pilothouse/wire/wire-client';
import { useT, type Translate } from '../../i18n';
import { keepCluster } from '../../shared/cluster-url';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { pagePath } from '../../shared/page-routes';
import { Link } from '../../shared/router';
import { clusterTone, notReadyPods, pendingRequests, readyNodes } from './cluster-model';
import { useClusterFigures } from './use-cluster-figures';
import { useClusters } from './use-clusters';
import './clusters.css';

/** One number of a row: `…` while it loads, `—` (with the reason as its title) when the list failed. */
function Figure<T>({ polled, value, to }: { polled: UseQueryResult<T>; value: (data: T) => string | number; to: string }): ReactNode {
  const t = useT();
  if (polled.data !== undefined) return <Link to={to}>{value(polled.data)}</Link>;
  if (polled.error) return <span title={t('clusters.notShown', { reason: errorLine(polled.error) })}>—</span>;
  return <span className="muted">…</span>;
}

function StatusCell({ summary, t }: { summary: ClusterSummary; t: Translate }): ReactNode {
  return (
    <td>
      <span className="cluster-status" data-testid={`cluster-status-${summary.name}`}>
        <span className={`dot dot-${clusterTone(summary)}`} aria-hidden="true" />
        {summary.reachable ? t('clusters.reachable') : t('clusters.down')}
      </span>
      {summary.error && <div className="muted small cluster-error">{summary.error}</div>}
    </td>
  );
}

/** The figures of a reachable cluster: each list on its own, in parallel with every other row's. */
function Figures({ name }: { name: string }): ReactNode {
  const t = useT();
  const figures = useClusterFigures(name);
  return (
    <>
      <td data-testid={`cluster-nodes-${name}`}>
        <Figure polled={figures.nodes} value={(list) => t('clusters.nodesValue', readyNodes(list.items))} to={keepCluster('/resources/nodes', name)} />
      </td>
      <td data-testid={`cluster-pods-${name}`}>
        <Figure polled={figures.pods} value={(list) => notReadyPods(list.items).length} to={keepCluster('/resources/pods', name)} />
      </td>
      <td data-testid={`cluster-requests-${name}`}>
        <Figure polled={figures.requests} value={(list) => pendingRequests(list.items).length} to={keepCluster('/access-requests', name)} />
      </td>
    </>
  );
}

/** The cluster's findings the caller may see (critical and warning; `GET /api/clusters` counts them), linked to its Problems page. */
function ProblemsCell({ summary }: { summary: ClusterSummary }): ReactNode {
  const t = useT();
  const counts = summary.problems;
  if (!counts) return <td className="muted">…</td>;
  return (
    <td data-testid={`cluster-problems-${summary.name}`}>
      <Link to={keepCluster(pagePath({ page: 'problems' }), summary.name)}>
        {t('clusters.problemsValue', { critical: counts.critical, warning: counts.warning })}
      </Link>
    </td>
  );
}

function ClusterRow({ summary }: { summary: ClusterSummary }): ReactNode {
  const t = useT();
  const name = summary.name;
  return (
    <tr data-testid={`cluster-row-${name}`}>
      <th scope="row">
        <Link to={keepCluster(pagePath({ page: 'overview' }), name)}>{name}</Link> <span className="muted small">{t(`clusters.source.${summary.source}`)}</span>
      </th>
      <StatusCell summary={summary} t={t} />
      <td>{summary.version ?? '—'}</td>
      {summary.reachable ? (
        <>
          <ProblemsCell summary={summary} />
          <Figures name={name} />
        </>
      ) : (
        <td colSpan={4} className="muted">
          {t('clusters.down')}
        </td>
      )}
    </tr>
  );
}

/**
 * Every cluster at a glance (ADR 0035): reachability and version from `GET /api/clusters`, then per reachable
 * cluster its nodes ready, pods not ready and pending access requests from the lists with `?cluster=NAME`.
 * Each row loads on its own: a down or slow cluster never holds the others.
 */
export function AllClustersPage(): ReactNode {
  const t = useT();
  const clusters = useClusters();
  return (
    <section className="page" aria-labelledby="clusters-title">
      <div className="toolbar">
        <h1 id="clusters-title">{t('clusters.title')}</h1>
      </div>
      <p className="muted small pad">{t('clusters.intro')}</p>
      <ErrorNotice error={clusters.error} compact={!!clusters.data} />
      {clusters.isPending && !clusters.data && <p className="muted pad">{t('common.loading')}</p>}
      {clusters.data && (
        <table className="data-table clusters-table">
          <caption className="visually-hidden">{t('clusters.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('clusters.name')}</th>
              <th scope="col">{t('clusters.status')}</th>
              <th scope="col">{t('clusters.version')}</th>
              <th scope="col">{t('clusters.problems')}</th>
              <th scope="col">{t('clusters.nodes')}</th>
              <th scope="col">{t('clusters.podsNotReady')}</th>
              <th scope="col">{t('clusters.pending')}</th>
            </tr>
          </thead>
          <tbody>
            {clusters.data.items.map((summary) => (
              <ClusterRow key={summary.name} summary={summary} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
