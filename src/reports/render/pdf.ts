import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { StyleDictionary, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { ReportDocument, ReportRenderer } from '../document/document.js';
import { pdfContent } from './pdf-content.js';

const fontDirectory = join(dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')), 'fonts', 'Roboto');

type PdfMake = typeof import('pdfmake');
let loaded: Promise<PdfMake> | undefined;

/**
 * pdfmake (with fontkit and its tables) is loaded on the first PDF, not at start: most instances never
 * render one, and it costs several MiB of memory. Roboto ships with pdfmake and is embedded (subset) in
 * every file. The renderer reads nothing else from disk and fetches no URL, whatever a document contains.
 */
function loadPdfMake(): Promise<PdfMake> {
  loaded ??= import('pdfmake').then(({ default: pdfmake }) => {
    pdfmake.setFonts({
      Roboto: {
        normal: join(fontDirectory, 'Roboto-Regular.ttf'),
        bold: join(fontDirectory, 'Roboto-Medium.ttf'),
        italics: join(fontDirectory, 'Roboto-Italic.ttf'),
        bolditalics: join(fontDirectory, 'Roboto-MediumItalic.ttf'),
      },
    });
    pdfmake.setUrlAccessPolicy(() => false);
    pdfmake.setLocalAccessPolicy((path) => path.startsWith(fontDirectory));
    return pdfmake;
  });
  return loaded;
}

const styles: StyleDictionary = {
  brand: { fontSize: 14, color: '#4b5563' },
  title: { fontSize: 26, bold: true },
  score: { fontSize: 16, bold: true, margin: [0, 16, 0, 8] },
  sectionTitle: { fontSize: 16, bold: true, margin: [0, 0, 0, 10] },
  tableTitle: { fontSize: 10, bold: true, margin: [0, 6, 0, 2] },
  tableHeader: { bold: true, fontSize: 8, fillColor: '#f3f4f6' },
  chartTitle: { fontSize: 10, bold: true, margin: [0, 4, 0, 6] },
};

function definition(document: ReportDocument): TDocumentDefinitions {
  return {
    info: { title: document.title, author: 'Pilothouse', subject: document.type, creator: 'Pilothouse' },
    pageSize: 'A4',
    pageMargins: [40, 50, 40, 50],
    defaultStyle: { font: 'Roboto', fontSize: 9 },
    styles,
    content: pdfContent(document),
    footer: (currentPage, pageCount) => ({
      columns: [
        { text: document.title, fontSize: 7, color: '#6b7280' },
        { text: `${currentPage} / ${pageCount}`, alignment: 'right', fontSize: 7, color: '#6b7280' },
      ],
      margin: [40, 16, 40, 0],
    }),
  };
}

/** PDF (pdfmake, fonts embedded): title page, contents, tables across pages, bar charts, severity colours. */
export const pdfRenderer: ReportRenderer = {
  format: 'pdf',
  contentType: 'application/pdf',
  extension: 'pdf',
  async render(document: ReportDocument): Promise<Buffer> {
    const pdfmake = await loadPdfMake();
    return pdfmake.createPdf(definition(document)).getBuffer();
  },
};
