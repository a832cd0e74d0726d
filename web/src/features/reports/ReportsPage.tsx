import { useQueryClient } from '@tanstack/react-query';
import { useCallback, type ReactNode } from 'react';
import type { ListResponse } from '../../api/list';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ListTable } from '../../shared/ListTable';
import { RowButton } from '../../shared/RowButton';
import { useAction } from '../../shared/use-action';
import { ActionNotices } from '../layout/ActionNotices';
import { useApiQuery } from '../../shared/use-api-query';
import { ReportForm } from './ReportForm';
import { withReport, type Report } from './report-types';
import { reportColumns } from './report-columns';
import { useReportProgress } from './use-report-progress';
import '../layout/pages.css';

const listPath = '/api/reports';

/** Downloads a finished report through the API client (the bearer token rides on the request, not in the URL). */
async function download(client: ReturnType<typeof useApi>, report: Report): Promise<void> {
  const response = await client.request('GET', `${listPath}/${encodeURIComponent(report.id)}/download`, { accept: '*/*' });
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = report.fileName ?? `${report.type}.${report.format}`;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Reports: request one, watch its progress live (SSE), download or delete it. */
export function ReportsPage({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const client = useApi();
  const queries = useQueryClient();
  const reports = useApiQuery(listPath);
  const action = useAction(() => void queries.invalidateQueries({ queryKey: [listPath] }));
  const rows = reports.data?.items ?? [];
  const onStatus = useCallback(
    (report: Report) =>
      queries.setQueriesData<ListResponse<Report>>({ queryKey: [listPath] }, (list) => ({
        items: withReport(list?.items ?? [], report),
        total: (list?.total ?? 0) + (list?.items.some((row) => row.id === report.id) ? 0 : 1),
      })),
    [queries],
  );
  useReportProgress(
    rows.filter((report) => report.status === 'generating').map((report) => report.id),
    onStatus,
  );
  const columns = reportColumns(t, (row) => (
    <span className="row-actions">
      {row.status === 'completed' && (
        <RowButton
          label={t('reports.download')}
          name={t('reports.downloadNamed', { name: row.fileName ?? row.id })}
          onClick={() => void action.act(async () => (await download(client, row), ''))}
        />
      )}
      <RowButton
        label={t('reports.delete')}
        name={t('reports.deleteNamed', { name: row.fileName ?? row.id })}
        danger
        disabled={action.busy}
        onClick={() => void action.act(async () => (await client.call('DELETE', '/api/reports/{id}', { path: { id: row.id } }), t('reports.deleted')))}
      />
    </span>
  ));
  return (
    <section className="page" aria-labelledby="reports-title">
      <div className="toolbar">
        <h1 id="reports-title">{t('reports.title')}</h1>
      </div>
      <ReportForm namespace={namespace} onRequested={onStatus} />
      <ActionNotices action={action} error={reports.error} />
      <ListTable columns={columns} rows={reports.data ? rows : undefined} empty={t('reports.empty')} rowKey={(row) => row.id} caption={t('reports.title')} />
    </section>
  );
}
