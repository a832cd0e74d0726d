import type { ReportDocument, ReportRenderer } from '../document/document.js';
import { allFindings, findingCells, findingColumns } from './finding-rows.js';

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, and quotes inside are doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV line: fields joined by commas, lines ended by CRLF (RFC 4180). */
function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** CSV: a header and one row per finding (section, rule, severity, kind, namespace, name, title, why, fix). */
export const csvRenderer: ReportRenderer = {
  format: 'csv',
  contentType: 'text/csv; charset=utf-8',
  extension: 'csv',
  render(document: ReportDocument): Promise<Buffer> {
    const lines = [csvLine(findingColumns), ...allFindings(document).map((entry) => csvLine(findingCells(entry)))];
    return Promise.resolve(Buffer.from(lines.join(''), 'utf8'));
  },
};
