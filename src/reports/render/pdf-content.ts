import type { Content, TableCell } from 'pdfmake/interfaces.js';
import type { Finding, ReportDocument, ReportSection, ReportTable } from '../document/document.js';
import { severityColours } from './html-style.js';
import { objectLabel, scopeLine, severityCounts, unavailableLine } from './finding-rows.js';
import { pdfBarChart } from './pdf-chart.js';
import { fittedTable } from './pdf-table.js';
import { reportTime } from './report-time.js';

/**
 * Text that wraps at spaces only: pdfmake would also break after hyphens (Unicode line breaking),
 * and pdftotext drops a hyphen at a line end, so `web-0` would read as `web0` when extracted.
 * A word longer than the line may overflow; titles, reasons and fixes have none.
 */
export function spaceWrapped(text: string): Array<{ text: string; noWrap: true }> {
  return text.split(/(?<=\s)/).map((word) => ({ text: word, noWrap: true }));
}

/**
 * A table that breaks across pages: its header row repeats on every page and rows stay whole. It always fits the
 * page width: columns sized by what they hold, long cells wrapped (src/reports/render/pdf-table.ts).
 */
function dataTable(data: ReportTable): Content {
  const { widths, body } = fittedTable(data);
  return {
    stack: [
      ...(data.title ? [{ text: data.title, style: 'tableTitle' }] : []),
      {
        table: { headerRows: 1, dontBreakRows: true, widths, body },
        layout: 'lightHorizontalLines',
      },
    ],
    margin: [0, 4, 0, 10],
  };
}

function severityCell(finding: Finding): TableCell {
  return { text: finding.severity.toUpperCase(), color: '#ffffff', fillColor: severityColours[finding.severity], bold: true, fontSize: 8 };
}

/** The details of a finding: the title on a full-width line, then object, rule, why and fix. */
function findingDetails(finding: Finding): TableCell {
  return {
    stack: [
      { text: spaceWrapped(finding.title), bold: true, fontSize: 9 },
      { text: spaceWrapped(`${objectLabel(finding)} · ${finding.rule}`), color: '#4b5563', fontSize: 7, margin: [0, 1, 0, 3] },
      { text: [{ text: 'Why it matters: ', bold: true }, ...spaceWrapped(finding.why)], fontSize: 8 },
      { text: [{ text: 'How to fix: ', bold: true }, ...spaceWrapped(finding.fix)], fontSize: 8, margin: [0, 2, 0, 0] },
    ],
  };
}

/** Findings as one table (severity in colour), breaking across pages with a repeated header. */
function findingTable(findings: readonly Finding[]): Content {
  const header: TableCell[] = ['Severity', 'Finding'].map((text) => ({ text, style: 'tableHeader' }));
  const rows: TableCell[][] = findings.map((finding) => [severityCell(finding), findingDetails(finding)]);
  return {
    table: { headerRows: 1, dontBreakRows: true, widths: [52, '*'], body: [header, ...rows] },
    layout: 'lightHorizontalLines',
    margin: [0, 4, 0, 10],
  };
}

function section(data: ReportSection): Content[] {
  const parts: Content[] = [{ text: data.title, style: 'sectionTitle', tocItem: true, pageBreak: 'before' }];
  if (data.status === 'unavailable') parts.push({ text: unavailableLine(data), color: '#b45309', margin: [0, 0, 0, 8] });
  if (data.summary) parts.push({ text: data.summary, margin: [0, 0, 0, 8] });
  if (data.score !== undefined) parts.push({ text: `Score: ${data.score}/100`, bold: true, margin: [0, 0, 0, 8] });
  parts.push(...data.tables.map(dataTable), ...data.charts.map(pdfBarChart));
  if (data.findings.length > 0) parts.push(findingTable(data.findings));
  else if (data.status === 'ok' && data.score !== undefined) parts.push({ text: 'No findings.', italics: true });
  return parts;
}

function titlePage(document: ReportDocument): Content[] {
  const counts = severityCounts(document.sections.flatMap((entry) => entry.findings)).filter(([, count]) => count > 0);
  const cluster = `${document.cluster.name ?? 'unnamed'}${document.cluster.version ? ` (Kubernetes ${document.cluster.version})` : ''}`;
  return [
    { text: 'Pilothouse', style: 'brand', margin: [0, 160, 0, 8] },
    { text: document.title, style: 'title' },
    { text: `Generated ${reportTime(document.generatedAt)}`, margin: [0, 24, 0, 2] },
    { text: `Requested by ${document.requester}`, margin: [0, 0, 0, 2] },
    { text: `Cluster: ${cluster}`, margin: [0, 0, 0, 2] },
    { text: scopeLine(document), margin: [0, 0, 0, 2] },
    ...(document.score === undefined ? [] : [{ text: `Overall score: ${document.score}/100`, style: 'score' }]),
    ...counts.map(([severity, count]): Content => ({ text: `${count} ${severity}`, color: severityColours[severity], bold: true })),
  ];
}

/** The whole document body: title page, table of contents, one section per page onwards. */
export function pdfContent(document: ReportDocument): Content[] {
  return [...titlePage(document), { toc: { title: { text: 'Contents', style: 'sectionTitle' } }, pageBreak: 'before' }, ...document.sections.flatMap(section)];
}
