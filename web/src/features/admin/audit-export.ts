import type { ApiClient } from '../../api/client';
import type { QueryOf } from '@pilothouse/wire/calls';
import type { AuditEntry } from '@pilothouse/wire/types';

/** The audit filters the page and the API share (`GET /api/audit`); empty values are left out of the query. */
/** The actions `GET /api/audit` filters by. */
export type AuditAction = NonNullable<QueryOf<'GET', '/api/audit'>['action']>;

export interface AuditFilters {
  action: AuditAction | '';
  user: string;
  /** `datetime-local` input values (the browser's local time), sent as ISO 8601 UTC. */
  from: string;
  to: string;
  cluster: string;
}

export const noFilters: AuditFilters = { action: '', user: '', from: '', to: '', cluster: '' };

function instant(local: string): string | undefined {
  if (!local) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** The query string of the filters. */
export function auditQuery(filters: AuditFilters): Omit<QueryOf<'GET', '/api/audit'>, 'limit' | 'offset'> {
  return {
    action: filters.action || undefined,
    user: filters.user.trim() || undefined,
    from: instant(filters.from),
    to: instant(filters.to),
    cluster: filters.cluster.trim() || undefined,
  };
}

const exportPage = 1000;
/** The most rows one export reads (ten pages of the API's maximum). */
export const exportLimit = 10 * exportPage;

/** Every row the filters match (newest first, up to {@link exportLimit}), read page by page. */
export async function allAuditRows(client: ApiClient, filters: AuditFilters): Promise<AuditEntry[]> {
  const rows: AuditEntry[] = [];
  for (let offset = 0; offset < exportLimit; offset += exportPage) {
    const page = await client.call('GET', '/api/audit', { query: { ...auditQuery(filters), limit: exportPage, offset } });
    rows.push(...page.items);
    if (page.items.length < exportPage || rows.length >= page.total) break;
  }
  return rows;
}

const csvColumns = ['timestamp', 'user', 'action', 'resource', 'cluster', 'decision', 'outcome', 'command', 'source', 'requestId', 'details'] as const;

function csvField(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV of audit rows: one header line, the command in its own column, the details as JSON. */
export function auditCsv(rows: readonly AuditEntry[]): string {
  const lines = rows.map((row) => {
    const command = typeof row.details.command === 'string' ? row.details.command : '';
    const values: Record<(typeof csvColumns)[number], unknown> = { ...row, cluster: row.cluster ?? '', command, details: JSON.stringify(row.details) };
    return csvColumns.map((column) => csvField(values[column])).join(',');
  });
  return [csvColumns.join(','), ...lines].join('\r\n') + '\r\n';
}

/** Saves text as a file (the browser's download). */
export function saveFile(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.click();
  URL.revokeObjectURL(url);
}
