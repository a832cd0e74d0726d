import type { ReactElement } from 'react';
import type { Row } from '../api/types.js';
import type { Column } from '../core/columns.js';
import type { Translate } from '../core/i18n.js';
import { ResourceTable } from '../components/resource-table.js';
import { progressText } from './progress-bar.js';
import type { ReportStatus } from './reports-api.js';

export interface ReportTableProps {
  reports: ReportStatus[];
  selected: number;
  offset: number;
  height: number;
  width: number;
  ascii: boolean;
  t: Translate;
}

const barWidth = 12;

/** The scope a report covers: its namespace, or the whole cluster. */
export const scopeOf = (report: ReportStatus, t: Translate): string => report.namespace || t('tui.report.cluster');

/** A report as a table row: the progress cell is a bar drawn with block characters (ASCII under --ascii). */
export function reportRow(report: ReportStatus, options: { ascii: boolean; t: Translate }): Row {
  return {
    name: report.id,
    type: report.type,
    format: report.format,
    scope: scopeOf(report, options.t),
    status: options.t(`tui.report.status.${report.status}`),
    progress: progressText(report.status === 'completed' ? 100 : report.progress, barWidth, options.ascii),
    created: (report.createdAt ?? '').replace('T', ' ').slice(0, 16),
  };
}

/** The columns of the list; the creation time only where there is room for it. */
export function reportColumns(width: number, t: Translate): Column[] {
  const keys = ['type', 'format', 'scope', 'status', 'progress', ...(width >= 100 ? ['created'] : [])];
  return keys.map((key) => ({ key, header: t(`tui.column.${key}`) }));
}

/** The `:reports` list: type, format, scope, status and a live progress bar per report. */
export function ReportTable(props: ReportTableProps): ReactElement {
  const rows = props.reports.map((report) => reportRow(report, props));
  return (
    <ResourceTable
      columns={reportColumns(props.width, props.t)}
      rows={rows}
      selected={props.selected}
      offset={props.offset}
      height={props.height}
      width={props.width}
    />
  );
}
