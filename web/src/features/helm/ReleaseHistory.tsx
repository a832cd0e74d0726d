import type { ReactNode } from 'react';
import { formatTime } from '../../shared/time';
import { useT } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useApiQuery } from '../../shared/use-api-query';
import { statusTone, type HistoryEntry } from './helm-types';

interface HistoryProps {
  namespace: string;
  name: string;
  current: number;
  busy: boolean;
  canWrite: boolean;
  onRollback: (revision: number) => void;
}

/** Every revision of the release, with Rollback to an earlier one. */
export function ReleaseHistory({ namespace, name, current, busy, canWrite, onRollback }: HistoryProps): ReactNode {
  const t = useT();
  const history = useApiQuery('/api/helm/releases/{name}/history', { path: { name }, query: { namespace } });
  const columns: Column<HistoryEntry>[] = [
    { key: 'revision', header: t('helm.revision'), cell: (row) => row.revision, sortValue: (row) => row.revision },
    { key: 'status', header: t('helm.status'), cell: (row) => <span className={statusTone(row.status)}>{row.status}</span> },
    { key: 'chart', header: t('helm.chart'), cell: (row) => row.chart },
    { key: 'appVersion', header: t('helm.appVersion'), cell: (row) => row.appVersion },
    { key: 'updated', header: t('helm.updated'), cell: (row) => <span className="small">{formatTime(row.updated)}</span> },
    { key: 'description', header: t('helm.description'), cell: (row) => <span className="small">{row.description}</span> },
    {
      key: 'rollback',
      header: t('helm.actions'),
      cell: (row) =>
        canWrite && row.revision !== current ? (
          <button
            type="button"
            className="small-button"
            disabled={busy}
            onClick={() => onRollback(row.revision)}
            aria-label={t('helm.rollbackTo', { revision: row.revision })}
          >
            {t('helm.rollback')}
          </button>
        ) : null,
    },
  ];
  return (
    <>
      <ErrorNotice error={history.error} />
      {history.data && (
        <DataTable columns={columns} rows={[...history.data.items].reverse()} rowKey={(row) => String(row.revision)} caption={t('helm.tab.history')} compact />
      )}
    </>
  );
}
