import type { ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { Link } from '../../shared/router';
import { formatTime } from '../../shared/time';
import { useT } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useApiQuery } from '../../shared/use-api-query';
import { releasePath, statusTone, type Release } from './helm-types';
import '../layout/pages.css';

/** Install (users and admins) and Repositories (admins) links. */
function HelmLinks(): ReactNode {
  const t = useT();
  const role = useApi().current?.role;
  return (
    <>
      {role !== 'viewer' && (
        <Link to="/helm/install" className="button-link primary">
          {t('helm.installButton')}
        </Link>
      )}
      {role === 'admin' && (
        <Link to="/helm/repositories" className="button-link">
          {t('helm.repositoriesTitle')}
        </Link>
      )}
    </>
  );
}

/** Helm releases of the namespace (all when none is picked): status, chart, app version, revision, updated. */
export function HelmReleasesPage({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const releases = useApiQuery('/api/helm/releases', { query: { namespace: namespace || undefined }, refetchInterval: 10_000 });
  const columns: Column<Release>[] = [
    { key: 'name', header: t('helm.name'), cell: (row) => <Link to={releasePath(row)}>{row.name}</Link>, sortValue: (row) => row.name },
    { key: 'namespace', header: t('helm.namespace'), cell: (row) => row.namespace, sortValue: (row) => row.namespace },
    { key: 'status', header: t('helm.status'), cell: (row) => <span className={statusTone(row.status)}>{row.status}</span>, sortValue: (row) => row.status },
    { key: 'chart', header: t('helm.chart'), cell: (row) => row.chart, sortValue: (row) => row.chart },
    { key: 'appVersion', header: t('helm.appVersion'), cell: (row) => row.appVersion },
    { key: 'revision', header: t('helm.revision'), cell: (row) => row.revision, sortValue: (row) => row.revision },
    { key: 'updated', header: t('helm.updated'), cell: (row) => <span className="small">{formatTime(row.updated)}</span>, sortValue: (row) => row.updated },
  ];
  return (
    <section className="page" aria-labelledby="helm-title">
      <div className="toolbar">
        <h1 id="helm-title">{t('helm.title')}</h1>
        <HelmLinks />
      </div>
      <ErrorNotice error={releases.error} />
      {releases.isPending && !releases.error && <p className="muted pad">{t('common.loading')}</p>}
      {releases.data?.items.length === 0 && <p className="muted pad">{t('helm.empty')}</p>}
      {!!releases.data?.items.length && (
        <DataTable columns={columns} rows={releases.data.items} rowKey={(row) => `${row.namespace}/${row.name}`} caption={t('helm.title')} />
      )}
    </section>
  );
}
