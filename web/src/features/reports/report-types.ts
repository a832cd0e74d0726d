import type { components } from '@pilothouse/wire/types';

/** A report as `GET /api/reports` and its SSE events show it. */
export type Report = components['schemas']['ReportStatus'];

export const reportTypes = ['cluster-overview', 'security-assessment'] as const;
export const reportFormats = ['pdf', 'html', 'markdown', 'json', 'csv'] as const;

/** The rows with one report replaced (or added on top) by a newer status. */
export function withReport(reports: readonly Report[], next: Report): Report[] {
  const index = reports.findIndex((report) => report.id === next.id);
  if (index === -1) return [next, ...reports];
  return reports.map((report) => (report.id === next.id ? { ...report, ...next } : report));
}

/** `1536` → `1.5 KiB`. */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
