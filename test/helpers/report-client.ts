import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestService } from './service.js';

/** One server-sent event of `GET /api/reports/{id}/events`. */
export interface ReportEvent {
  event: string;
  data: { id: string; status?: string; progress?: number; message?: string | null };
}

/** Reads the progress stream of a report to its end (the service ends it when the report is finished). */
export async function followReportEvents(service: TestService, id: string, token: string): Promise<ReportEvent[]> {
  const response = await fetch(`${service.url}/api/reports/${id}/events`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
    signal: AbortSignal.timeout(120_000),
  });
  if (response.status !== 200) throw new Error(`events of ${id}: ${response.status} ${await response.text()}`);
  const events: ReportEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(piece, { stream: true });
    let boundary = buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const name = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (name && data) events.push({ event: name, data: JSON.parse(data) as ReportEvent['data'] });
      boundary = buffer.indexOf('\n\n');
    }
  }
  return events;
}

/** A downloaded report file. */
export interface Download {
  status: number;
  contentType: string;
  disposition: string;
  bytes: Buffer;
}

export async function downloadReport(service: TestService, id: string, token: string): Promise<Download> {
  const response = await fetch(`${service.url}/api/reports/${id}/download`, { headers: { Authorization: `Bearer ${token}` } });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    disposition: response.headers.get('content-disposition') ?? '',
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** pdftotext (poppler-utils) of a PDF, whitespace collapsed, and its page count from pdfinfo. */
export function pdfText(bytes: Buffer): { text: string; pages: number } {
  const file = join(mkdtempSync(join(tmpdir(), 'report-e2e-')), 'report.pdf');
  writeFileSync(file, bytes);
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1] ?? 0);
  return { text, pages };
}
