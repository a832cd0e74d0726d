import type { ReportDocument, ReportRenderer } from '../document/document.js';

/** JSON: the document itself (schema: docs/report.schema.json). */
export const jsonRenderer: ReportRenderer = {
  format: 'json',
  contentType: 'application/json',
  extension: 'json',
  render(document: ReportDocument): Promise<Buffer> {
    return Promise.resolve(Buffer.from(`${JSON.stringify(document, null, 2)}\n`, 'utf8'));
  },
};
