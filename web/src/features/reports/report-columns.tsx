import type { ReactNode } from 'react';
import type { Translate } from '../../i18n';
import type { Column } from '../../shared/DataTable';
import { clusterColumn } from '../../shared/cluster-column';
import { formatSize, type Report } from './report-types';

const statusTone: Record<Report['status'], string> = { generating: 'tone-warn', completed: 'tone-good', failed: 'tone-bad' };

/** The reports table's columns (the cluster a report was generated from among them); `actions` renders the last cell. */
export function reportColumns(t: Translate, actions: (report: Report) => ReactNode): Column<Report>[] {
  return [
    { key: 'type', header: t('reports.type'), cell: (row) => t(`reports.type.${row.type}`), sortValue: (row) => row.type },
    { key: 'format', header: t('reports.format'), cell: (row) => row.format.toUpperCase() },
    clusterColumn<Report>(t),
    { key: 'namespace', header: t('reports.namespace'), cell: (row) => row.namespace || t('reports.allNamespaces') },
    {
      key: 'progress',
      header: t('reports.progress'),
      cell: (row) => (
        <span className="report-progress">
          <progress
            className="progress-bar"
            max={100}
            value={row.status === 'completed' ? 100 : row.progress}
            aria-label={t('reports.progressOf', { id: row.id })}
          />
          <span className={statusTone[row.status]}>{t(`reports.status.${row.status}`)}</span>
          {row.message && row.message.toLowerCase() !== row.status && <span className="muted small"> {row.message}</span>}
        </span>
      ),
      sortValue: (row) => row.progress,
    },
    { key: 'requester', header: t('reports.requester'), cell: (row) => row.requester ?? '' },
    { key: 'created', header: t('reports.created'), cell: (row) => <span className="small">{row.createdAt}</span>, sortValue: (row) => row.createdAt ?? '' },
    { key: 'size', header: t('reports.size'), cell: (row) => formatSize(row.size) },
    { key: 'actions', header: t('reports.actions'), cell: actions },
  ];
}
