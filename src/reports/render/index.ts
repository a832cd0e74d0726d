import type { ReportFormat, ReportRenderer } from '../document/document.js';
import { csvRenderer } from './csv.js';
import { htmlRenderer } from './html.js';
import { jsonRenderer } from './json.js';
import { markdownRenderer } from './markdown.js';
import { pdfRenderer } from './pdf.js';

/** One renderer per format. */
export const renderers: Readonly<Record<ReportFormat, ReportRenderer>> = {
  pdf: pdfRenderer,
  html: htmlRenderer,
  markdown: markdownRenderer,
  json: jsonRenderer,
  csv: csvRenderer,
};
