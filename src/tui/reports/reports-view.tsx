import { Box, Text, useInput } from 'ink';
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { useShell, type Shell } from '../core/shell.js';
import { actionFor, type ActionName } from '../core/key-map.js';
import { useRowCursor, type RowCursor } from '../components/use-row-cursor.js';
import { ReportForm } from './report-form.js';
import { ReportsApi, type ReportRequest, type ReportStatus } from './reports-api.js';
import { ReportTable, reportRow, scopeOf } from './report-table.js';
import { useReports } from './use-reports.js';

/** A report named for a question or notice: `security-assessment (pdf, cluster)`. */
const nameOf = (report: ReportStatus, shell: Shell): string => `${report.type} (${report.format}, ${scopeOf(report, shell.t)})`;

async function download(shell: Shell, api: ReportsApi, report: ReportStatus, askPath: boolean): Promise<void> {
  if (report.status === 'failed')
    return shell.report(new Error(shell.t('tui.report.failed', { report: nameOf(report, shell), message: report.message ?? '' })));
  if (report.status !== 'completed') return shell.notice(shell.t('tui.report.notReady', { report: nameOf(report, shell) }));
  const directory = askPath ? await shell.ask(shell.t('tui.report.savePath'), process.cwd()) : process.cwd();
  if (!directory) return;
  const path = await api.download(report, directory);
  shell.notice(shell.t('tui.report.saved', { path }));
}

async function remove(shell: Shell, api: ReportsApi, report: ReportStatus): Promise<void> {
  if (!(await shell.confirm(shell.t('tui.confirm.deleteReport', { report: nameOf(report, shell) })))) return;
  await api.remove(report.id);
  shell.notice(shell.t('tui.report.deleted', { report: nameOf(report, shell) }));
}

async function onAction(shell: Shell, api: ReportsApi, action: ActionName, report: ReportStatus | undefined): Promise<void> {
  if (!report) return;
  if (action === 'download' || action === 'downloadTo') await download(shell, api, report, action === 'downloadTo');
  else if (action === 'delete') await remove(shell, api, report);
}

async function requestReport(shell: Shell, api: ReportsApi, request: ReportRequest): Promise<string> {
  const id = await api.request(request);
  shell.notice(shell.t('tui.report.requested', { report: `${request.type} (${request.format}, ${request.namespace || shell.t('tui.report.cluster')})` }));
  return id;
}

/** Selects a report just requested once the list shows it (so enter right after acts on it). */
function useSelectWhenListed(list: ReportStatus[], cursor: RowCursor): (id: string) => void {
  const [wanted, setWanted] = useState<string | undefined>(undefined);
  useEffect(() => {
    const index = wanted === undefined ? -1 : list.findIndex((report) => report.id === wanted);
    if (index < 0) return;
    cursor.select(index);
    setWanted(undefined);
  }, [list, wanted]);
  return setWanted;
}

const countOf = (reports: ReportStatus[] | undefined, shell: Shell): string => (reports === undefined ? shell.t('tui.loading') : String(reports.length));

/** `:reports`: the caller's reports with live progress bars; `n` requests one, enter/`o` download, ctrl-d deletes. */
export function ReportsView(props: { height: number; width: number; active: boolean }): ReactElement {
  const shell = useShell();
  const api = useMemo(() => new ReportsApi(shell.api.client), [shell.api]);
  const { reports, reload } = useReports(api, (error) => shell.report(error));
  const [form, setForm] = useState(false);
  const list = useMemo(() => reports ?? [], [reports]);
  const rows = useMemo(() => list.map((report) => reportRow(report, shell)), [list, shell]);
  const height = Math.max(1, props.height - 2 - (form ? 6 : 0));
  const cursor = useRowCursor(rows, height, props.active && !form);
  const selected = list[cursor.selected];
  const selectWhenListed = useSelectWhenListed(list, cursor);
  const openForm = (open: boolean): void => {
    setForm(open);
    shell.setCapturing(open);
  };
  const submit = (request: ReportRequest): void => {
    openForm(false);
    requestReport(shell, api, request).then(
      (id) => (selectWhenListed(id), reload()),
      (error: unknown) => shell.report(error),
    );
  };
  useInput(
    (input, key) => {
      const action = actionFor('reports', shell, input, key);
      if (action === 'newReport') return openForm(true);
      if (action) onAction(shell, api, action, selected).then(reload, (error: unknown) => shell.report(error));
    },
    { isActive: props.active && !form },
  );
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {shell.t('tui.view.reports')}[{countOf(reports, shell)}]
      </Text>
      {form ? <ReportForm namespace={shell.namespace ?? ''} t={shell.t} ascii={shell.ascii} onSubmit={submit} onCancel={() => openForm(false)} /> : null}
      {reports?.length === 0 ? (
        <Text dimColor>{shell.t('tui.report.none')}</Text>
      ) : (
        <ReportTable reports={list} selected={cursor.selected} offset={cursor.offset} height={height} width={props.width} ascii={shell.ascii} t={shell.t} />
      )}
    </Box>
  );
}
