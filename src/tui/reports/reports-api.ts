import type { ReportStatus as WireReportStatus } from '@pilothouse/wire/types';
import type { ApiClient } from '../api/client.js';
import { serverEvents } from '@pilothouse/wire/wire-client';
import { reportFileName, writeNewFile } from './report-file.js';

export const reportTypeChoices = ['cluster-overview', 'security-assessment'] as const;
export const reportFormatChoices = ['pdf', 'html', 'markdown', 'json', 'csv'] as const;

/** One report as GET /api/reports lists it (the wire's ReportStatus). */
export type ReportStatus = WireReportStatus;

export interface ReportRequest {
  type: (typeof reportTypeChoices)[number];
  format: (typeof reportFormatChoices)[number];
  namespace: string;
}

/** A progress event of GET /api/reports/{id}/events: the report's new status, or its deletion. */
export type ReportEvent = { kind: 'status'; report: ReportStatus } | { kind: 'deleted'; id: string };

/** The Reports endpoints (issue 14) the terminal UI calls, through the one ApiClient. */
export class ReportsApi {
  constructor(private readonly client: ApiClient) {}

  async list(): Promise<ReportStatus[]> {
    return (await this.client.call('GET', '/api/reports')).items;
  }

  async request(body: ReportRequest): Promise<string> {
    return (await this.client.call('POST', '/api/reports', { body })).id;
  }

  async remove(id: string): Promise<void> {
    await this.client.call('DELETE', '/api/reports/{id}', { path: { id } });
  }

  /**
   * Saves the report's file as a new file in `directory` under a name chosen here from the report's type,
   * scope, date and format (never the server's Content-Disposition name); resolves with the absolute path.
   */
  async download(report: ReportStatus, directory: string): Promise<string> {
    const response = await this.client.file(`/api/reports/${encodeURIComponent(report.id)}/download`);
    return writeNewFile(directory, reportFileName(report), new Uint8Array(await response.arrayBuffer()));
  }

  /** Follows a report's progress until the stream ends (completed, failed, deleted) or `signal` aborts. */
  async *events(id: string, signal: AbortSignal): AsyncGenerator<ReportEvent> {
    const response = await this.client.stream(`/api/reports/${encodeURIComponent(id)}/events`, {}, signal);
    for await (const event of serverEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
      if (event.event === 'deleted') yield { kind: 'deleted', id };
      else if (event.event === 'progress' || event.event === 'completed' || event.event === 'failed')
        yield { kind: 'status', report: event.data as ReportStatus };
    }
  }
}
