import type { TableCell } from 'pdfmake/interfaces.js';
import type { ReportTable } from '../document.js';
import { reportTime } from './report-time.js';

/** A4 (595 pt) less the page margins (40 pt each side). */
const pageWidth = 515;
/** lightHorizontalLines: 4 pt of padding on each side of every cell. */
const cellPadding = 8;
/** Roboto at 8 pt: the average glyph is about 4.4 pt wide. */
const glyphWidth = 4.4;

/** How much room a column asks for, in characters: its longest cell, within bounds (short columns stay narrow). */
function columnWeight(data: ReportTable, column: number): number {
  const lengths = [data.columns[column] ?? '', ...data.rows.map((row) => String(row[column] ?? ''))].map((text) => text.length);
  return Math.min(40, Math.max(5, ...lengths));
}

/** Column widths in points that always sum to the page: a column gets room in proportion to what it holds. */
export function columnWidths(data: ReportTable): number[] {
  const weights = data.columns.map((_, column) => columnWeight(data, column));
  const room = pageWidth - cellPadding * data.columns.length - 1;
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => Math.floor((room * weight) / total));
}

/**
 * A cell's text as fragments that wrap inside `width`: at spaces, and inside a word longer than the column (an
 * object name, a UUID) after `/`, `_`, `.`, `:`, `,`, `(`, or before a `-` (a hyphen at a line end is dropped by
 * text extraction), else every few characters. Fragments never wrap inside themselves (pdfmake's own breaking
 * would break after hyphens).
 */
export function wrappedCell(text: string, width: number): Array<{ text: string; noWrap: true }> {
  const line = Math.max(4, Math.floor(width / glyphWidth));
  const words = text.split(/(?<=\s)/);
  return words.flatMap((word) => (word.length <= line ? [word] : pieces(word, line))).map((piece) => ({ text: piece, noWrap: true }));
}

function pieces(word: string, line: number): string[] {
  const parts = word.split(/(?<=[/_.:,(])|(?=-)/);
  const result: string[] = [];
  let current = '';
  for (const part of parts) {
    if (current && current.length + part.length > line) {
      result.push(current);
      current = '';
    }
    current += part;
    while (current.length > line) {
      result.push(current.slice(0, line));
      current = current.slice(line);
    }
  }
  return current ? [...result, current] : result;
}

/** The table's header and rows as pdfmake cells, sized to fit the page; timestamps written one way (reportTime). */
export function fittedTable(data: ReportTable): { widths: number[]; body: TableCell[][] } {
  const widths = columnWidths(data);
  const cell = (value: string | number, column: number): TableCell => ({ text: wrappedCell(reportTime(String(value)), widths[column] ?? 0), fontSize: 8 });
  const header: TableCell[] = data.columns.map((column, index) => ({ text: wrappedCell(column, widths[index] ?? 0), style: 'tableHeader' }));
  return { widths, body: [header, ...data.rows.map((row) => row.map(cell))] };
}
