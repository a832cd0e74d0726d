import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { createTranslate } from '../core/i18n.js';
import { ReportTable, type ReportTableProps } from './report-table.js';
import type { ReportStatus } from './reports-api.js';
import { mergeReports } from './use-reports.js';

const report = (id: string, overrides: Partial<ReportStatus> = {}): ReportStatus => ({
  id,
  type: 'cluster-overview',
  format: 'pdf',
  namespace: '',
  status: 'generating',
  progress: 0,
  message: null,
  createdAt: '2026-11-26T09:00:00Z',
  fileName: null,
  cluster: 'home',
  completedAt: null,
  conditions: [],
  requester: null,
  size: null,
  ...overrides,
});

const reports: ReportStatus[] = [
  report('report-a', { type: 'security-assessment', format: 'html', namespace: 'shop', progress: 40 }),
  report('report-b', { status: 'completed', progress: 100, fileName: 'cluster-overview-cluster-20261126-0900.pdf' }),
  report('report-c', { format: 'csv', status: 'failed', progress: 30 }),
];

function renderTable(overrides: Partial<ReportTableProps> = {}): string[] {
  const props: ReportTableProps = { reports, selected: 0, offset: 0, height: 10, width: 120, ascii: false, t: createTranslate('en'), ...overrides };
  return (render(<ReportTable {...props} />).lastFrame() ?? '').split('\n');
}

describe('the :reports list', () => {
  it('shows type, format, scope, status and a progress bar per report', () => {
    const [header, ...rows] = renderTable();
    expect(header).toMatch(/^TYPE\s+FORMAT\s+SCOPE\s+STATUS\s+PROGRESS\s+CREATED/);
    expect(rows[0]).toMatch(/security-assessment\s+html\s+shop\s+generating\s+████▊░░░░░░░\s+40%/);
    expect(rows[1]).toMatch(/cluster-overview\s+pdf\s+cluster\s+completed\s+████████████ 100%\s+2026-11-26 09:00/);
    expect(rows[2]).toMatch(/csv\s+cluster\s+failed\s+███▋░░░░░░░░\s+30%/);
  });

  it('draws the bars in ASCII under --ascii', () => {
    const rows = renderTable({ ascii: true }).slice(1);
    expect(rows[0]).toMatch(/####-------- {2}40%/);
    expect(rows[1]).toMatch(/############ 100%/);
    expect(rows.join('\n')).not.toMatch(/[█░]/);
  });

  it('fits 80 columns (leaving out the creation time) and keeps columns aligned in Korean', () => {
    const lines = renderTable({ width: 78, t: createTranslate('ko') });
    expect(lines[0]).toMatch(/^유형\s+형식\s+범위\s+상태\s+진행률\s*$/);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(78);
    const barStart = (line: string): number => stringWidth(line.slice(0, line.search(/[█░]/)));
    expect(new Set(lines.slice(1).map(barStart)).size).toBe(1);
    expect(lines[2]).toContain('클러스터 전체');
  });

  it('moves a bar when a progress event arrives and a later list read does not move it back', () => {
    const streamed = mergeReports(reports, [report('report-a', { progress: 40 })]).map((item) => ({ ...item, progress: 80 }));
    const merged = mergeReports(streamed, [report('report-a', { progress: 60 }), report('report-d')]);
    expect(merged.map((item) => [item.id, item.progress])).toEqual([
      ['report-a', 80],
      ['report-d', 0],
    ]);
    expect(renderTable({ reports: merged })[1]).toMatch(/█████████▋░░\s+80%/);
    const done = mergeReports([{ ...merged[0]!, status: 'completed', progress: 100 }], [report('report-a', { progress: 90 })]);
    expect(done[0]).toMatchObject({ status: 'completed', progress: 100 });
  });
});
