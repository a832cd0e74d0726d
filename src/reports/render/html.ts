import type { BarChart, Finding, ReportDocument, ReportRenderer, ReportSection, ReportTable } from '../document/document.js';
import { htmlStyle, severityColours } from './html-style.js';
import { objectLabel, scopeLine, severityCounts, unavailableLine } from './finding-rows.js';

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (character) => entities[character] ?? character);
}

function table(data: ReportTable): string {
  const head = data.columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('');
  const body = data.rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n');
  const title = data.title ? `<h3>${escapeHtml(data.title)}</h3>` : '';
  return `${title}<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function chart(data: BarChart): string {
  const largest = Math.max(1, ...data.bars.map((bar) => bar.max ?? bar.value));
  const bars = data.bars.map((bar) => {
    const share = Math.min(100, Math.round((bar.value / (bar.max ?? largest)) * 100));
    const limit = bar.max === undefined ? '' : ` / ${bar.max}`;
    return `<div class="bar"><span class="bar-label">${escapeHtml(bar.label)}</span><span class="bar-track"><span class="bar-fill" style="display:block;width:${share}%"></span></span><span class="bar-value">${escapeHtml(`${bar.value}${limit} ${data.unit}`)}</span></div>`;
  });
  return `<figure><figcaption><strong>${escapeHtml(data.title)}</strong></figcaption>${bars.join('\n')}</figure>`;
}

function finding(data: Finding): string {
  return `<div class="finding" style="--severity:${severityColours[data.severity]}">
<p><span class="badge">${escapeHtml(data.severity)}</span><strong>${escapeHtml(data.title)}</strong></p>
<p class="meta"><code>${escapeHtml(data.rule)}</code> · ${escapeHtml(objectLabel(data))}</p>
<p><em>Why it matters:</em> ${escapeHtml(data.why)}</p>
<p><em>How to fix:</em> ${escapeHtml(data.fix)}</p>
</div>`;
}

function section(data: ReportSection, index: number): string {
  const parts = [`<section id="section-${index + 1}"><h2>${escapeHtml(data.title)}</h2>`];
  if (data.status === 'unavailable') parts.push(`<p class="unavailable">${escapeHtml(unavailableLine(data))}</p>`);
  if (data.summary) parts.push(`<p>${escapeHtml(data.summary)}</p>`);
  if (data.score !== undefined) parts.push(`<p class="score">Score: ${data.score}/100</p>`);
  parts.push(...data.tables.map(table), ...data.charts.map(chart), ...data.findings.map(finding));
  if (data.status === 'ok' && data.findings.length === 0 && data.score !== undefined) parts.push('<p>No findings.</p>');
  parts.push('</section>');
  return parts.join('\n');
}

function header(document: ReportDocument): string {
  const counts = severityCounts(document.sections.flatMap((entry) => entry.findings)).filter(([, count]) => count > 0);
  const cluster = `${document.cluster.name ?? 'unnamed'}${document.cluster.version ? ` (Kubernetes ${document.cluster.version})` : ''}`;
  const lines = [
    `Generated ${document.generatedAt} for ${document.requester}`,
    `Cluster: ${cluster}`,
    scopeLine(document),
    ...(counts.length > 0 ? [`Findings: ${counts.map(([severity, count]) => `${count} ${severity}`).join(', ')}`] : []),
  ];
  const score = document.score === undefined ? '' : `<p class="score">Overall score: ${document.score}/100</p>`;
  const contents = document.sections.map((entry, index) => `<li><a href="#section-${index + 1}">${escapeHtml(entry.title)}</a></li>`).join('');
  return `<h1>${escapeHtml(document.title)}</h1>\n${lines.map((line) => `<p class="meta">${escapeHtml(line)}</p>`).join('\n')}\n${score}\n<nav><h2>Contents</h2><ol>${contents}</ol></nav>`;
}

/** HTML: one standalone page (inline CSS, no scripts, no external assets), everything escaped. */
export const htmlRenderer: ReportRenderer = {
  format: 'html',
  contentType: 'text/html; charset=utf-8',
  extension: 'html',
  render(document: ReportDocument): Promise<Buffer> {
    const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(document.title)}</title>
<style>${htmlStyle}</style>
</head>
<body>
${header(document)}
${document.sections.map(section).join('\n')}
</body>
</html>
`;
    return Promise.resolve(Buffer.from(page, 'utf8'));
  },
};
