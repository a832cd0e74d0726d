import type { BarChart, Finding, ReportSection, ReportTable } from './document.js';
import { isAppError } from '../../errors.js';

/** What a section builder returns (the section's id, title and status are added around it). */
export interface SectionContent {
  summary?: string;
  tables?: ReportTable[];
  charts?: BarChart[];
  findings?: Finding[];
}

/** A section's failure in the words of the failure (AppError messages are safe to show; others are not). */
function reasonOf(error: unknown): string {
  if (isAppError(error)) return error.message;
  return 'the data could not be read';
}

/**
 * Builds one section; a failing step (a refused or missing API, helm missing) marks the section
 * `unavailable` with the reason instead of failing the report. An abort still aborts.
 */
export async function buildSection(id: string, title: string, build: () => Promise<SectionContent>, signal: AbortSignal): Promise<ReportSection> {
  try {
    const content = await build();
    return { id, title, status: 'ok', summary: content.summary, tables: content.tables ?? [], charts: content.charts ?? [], findings: content.findings ?? [] };
  } catch (error) {
    if (signal.aborted) throw error;
    return { id, title, status: 'unavailable', unavailableReason: reasonOf(error), tables: [], charts: [], findings: [] };
  }
}

/** `3 pods` / `1 pod`. */
export function count(amount: number, singular: string, plural = `${singular}s`): string {
  return `${amount} ${amount === 1 ? singular : plural}`;
}

/** A table, or nothing when it has no rows (renderers then skip it). */
export function tableOf(title: string, columns: string[], rows: Array<Array<string | number>>): ReportTable[] {
  return rows.length === 0 ? [] : [{ title, columns, rows }];
}

/** Rows shown in one table at most; the rest is counted in a last row (findings keep every object). */
export const maxTableRows = 200;

/** A table whose rows past {@link maxTableRows} are folded into one `… and N more` row. */
export function limitedTableOf(title: string, columns: string[], rows: Array<Array<string | number>>): ReportTable[] {
  if (rows.length <= maxTableRows) return tableOf(title, columns, rows);
  const more = [`… and ${rows.length - maxTableRows} more`, ...columns.slice(1).map(() => '')];
  return tableOf(title, columns, [...rows.slice(0, maxTableRows), more]);
}
