import type { BarChart, ReportDocument, ReportRenderer, ReportSection, ReportTable } from '../document/document.js';
import { objectLabel, scopeLine, severityCounts, unavailableLine } from './finding-rows.js';

/**
 * Escapes text for a Markdown table cell or paragraph: backslashes, code spans, pipes, link
 * brackets and angle brackets (raw HTML); emphasis characters stay, so names read as they are.
 */
export function markdownText(value: string | number): string {
  return String(value)
    .replace(/[\\`[\]<>|]/g, (character) => `\\${character}`)
    .replace(/\r?\n/g, ' ');
}

function table(columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string[] {
  return [
    `| ${columns.map(markdownText).join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(markdownText).join(' | ')} |`),
    '',
  ];
}

function dataTable(data: ReportTable): string[] {
  return [...(data.title ? [`**${markdownText(data.title)}**`, ''] : []), ...table(data.columns, data.rows)];
}

/** A chart as a table with a text bar (Markdown has no pictures without assets). */
function chart(data: BarChart): string[] {
  const rows = data.bars.map((bar) => {
    const share = bar.max ? Math.min(1, bar.value / bar.max) : 0;
    const limit = bar.max === undefined ? '' : ` / ${bar.max}`;
    return [bar.label, `${bar.value}${limit} ${data.unit}`, bar.max ? `${'█'.repeat(Math.round(share * 20))} ${Math.round(share * 100)}%` : ''];
  });
  return [`**${markdownText(data.title)}**`, '', ...table(['', data.unit, 'share'], rows)];
}

function findings(section: ReportSection): string[] {
  if (section.findings.length === 0) return section.status === 'ok' ? ['No findings.', ''] : [];
  return section.findings.flatMap((finding) => [
    `#### [${finding.severity.toUpperCase()}] ${markdownText(finding.title)}`,
    '',
    `- Rule: \`${finding.rule}\``,
    `- Object: ${markdownText(objectLabel(finding))}`,
    `- Why it matters: ${markdownText(finding.why)}`,
    `- How to fix: ${markdownText(finding.fix)}`,
    '',
  ]);
}

function section(data: ReportSection): string[] {
  const heading = [`## ${markdownText(data.title)}`, ''];
  const status = data.status === 'unavailable' ? [`> ${markdownText(unavailableLine(data))}`, ''] : [];
  const summary = data.summary ? [markdownText(data.summary), ''] : [];
  const score = data.score === undefined ? [] : [`Score: **${data.score}/100**`, ''];
  return [...heading, ...status, ...summary, ...score, ...data.tables.flatMap(dataTable), ...data.charts.flatMap(chart), ...findings(data)];
}

function header(document: ReportDocument): string[] {
  const all = document.sections.flatMap((entry) => entry.findings);
  const counts = severityCounts(all).filter(([, count]) => count > 0);
  return [
    `# ${markdownText(document.title)}`,
    '',
    `- Generated: ${document.generatedAt}`,
    `- Requested by: ${markdownText(document.requester)}`,
    `- Cluster: ${markdownText(document.cluster.name ?? 'unnamed')}${document.cluster.version ? ` (Kubernetes ${markdownText(document.cluster.version)})` : ''}`,
    `- ${markdownText(scopeLine(document))}`,
    ...(document.score === undefined ? [] : [`- Overall score: **${document.score}/100**`]),
    ...(counts.length > 0 ? [`- Findings: ${counts.map(([severity, count]) => `${count} ${severity}`).join(', ')}`] : []),
    '',
    '## Contents',
    '',
    ...document.sections.map((entry, index) => `${index + 1}. ${markdownText(entry.title)}`),
    '',
  ];
}

/** Markdown (GitHub flavoured): headings per section, tables, findings with why and fix. */
export const markdownRenderer: ReportRenderer = {
  format: 'markdown',
  contentType: 'text/markdown; charset=utf-8',
  extension: 'md',
  render(document: ReportDocument): Promise<Buffer> {
    const lines = [...header(document), ...document.sections.flatMap(section)];
    return Promise.resolve(Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
  },
};
