import type { TableCell } from 'pdfmake/interfaces.js';
import type { ReportTable } from '../document/document.js';
import { reportTime } from './report-time.js';

/** A4 (595 pt) less the page margins (40 pt each side). */
const pageWidth = 515;
/** lightHorizontalLines: 4 pt of padding on each side of every cell. */
const cellPadding = 8;
/** Roboto at 8 pt: a glyph is 4.4 pt wide on average; wide letters more, so lines are cut a little short. */
const glyphWidth = 4.8;
/** A column that needs no more characters than this (a time, a count, a namespace) gets all it needs first. */
const shortColumn = 24;

/** How much room a column asks for, in characters: its longest cell, within bounds. */
function columnNeed(data: ReportTable, column: number): number {
  const lengths = [data.columns[column] ?? '', ...data.rows.map((row) => String(row[column] ?? ''))].map((text) => reportTime(text).length);
  return Math.min(60, Math.max(4, ...lengths));
}

/**
 * Column widths in points that always sum to the page: short columns get all they need, the long ones share what
 * is left in proportion to their length (all in proportion when the short ones alone would not fit).
 */
export function columnWidths(data: ReportTable): number[] {
  // One character of slack: a cell exactly as long as its column's need still fits on one line.
  const needs = data.columns.map((_, column) => (columnNeed(data, column) + 1) * glyphWidth);
  const room = pageWidth - cellPadding * data.columns.length - 1;
  const total = needs.reduce((sum, need) => sum + need, 0);
  if (total <= room) return needs.map((need) => Math.floor((need * room) / total));
  const isShort = (need: number): boolean => need <= shortColumn * glyphWidth;
  const shortTotal = needs.filter(isShort).reduce((sum, need) => sum + need, 0);
  const longTotal = total - shortTotal;
  const left = room - shortTotal;
  if (longTotal === 0 || left < longTotal * 0.3) return needs.map((need) => Math.floor((need * room) / total));
  return needs.map((need) => Math.floor(isShort(need) ? need : (need * left) / longTotal));
}

/** A word longer than a line, cut after `/`, `_`, `.`, `:`, `,`, `(` or before a `-` where it can, else every `limit` characters. */
function pieces(word: string, limit: number): string[] {
  const result: string[] = [];
  let current = '';
  for (const part of word.split(/(?<=[/_.:,(])|(?=-)/)) {
    if (current && current.length + part.length > limit) {
      result.push(current);
      current = '';
    }
    current += part;
    while (current.length > limit) {
      result.push(current.slice(0, limit));
      current = current.slice(limit);
    }
  }
  return current ? [...result, current] : result;
}

function wrapLine(text: string, limit: number): string {
  const tokens = text.split(/(?<=\s)/).flatMap((word) => (word.trimEnd().length <= limit ? [word] : pieces(word.trimEnd(), limit)));
  const lines: string[] = [];
  let current = '';
  for (const token of tokens) {
    if (current.trim() && (current + token).trimEnd().length > limit) {
      lines.push(current.trimEnd());
      current = token.trimStart();
    } else current += token;
  }
  if (current.trim()) lines.push(current.trimEnd());
  return lines.join('\n');
}

/**
 * A cell's text broken into lines that fit `width` points: at spaces, and inside a word longer than the column (an
 * object name, a UUID) at `/`, `_`, `.`, `:`, `,`, `(` or before a `-` (text extraction drops a hyphen at a line
 * end), else every few characters. pdfmake alone breaks only at spaces and hyphens, and lets a longer word push
 * the table off the page.
 */
export function wrappedCell(text: string, width: number): string {
  const limit = Math.max(4, Math.floor(width / glyphWidth));
  return text
    .split('\n')
    .map((line) => wrapLine(line, limit))
    .join('\n');
}

/** The table's header and rows as pdfmake cells, sized to fit the page; times written one way (reportTime). */
export function fittedTable(data: ReportTable): { widths: number[]; body: TableCell[][] } {
  const widths = columnWidths(data);
  const cell = (value: string | number, column: number): TableCell => ({ text: wrappedCell(reportTime(String(value)), widths[column] ?? 0), fontSize: 8 });
  const header: TableCell[] = data.columns.map((column, index) => ({ text: wrappedCell(column, widths[index] ?? 0), style: 'tableHeader' }));
  return { widths, body: [header, ...data.rows.map((row) => row.map(cell))] };
}
