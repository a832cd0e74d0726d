import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml } from '../../helpers/kubectl.js';
import { downloadReport, followReportEvents } from '../../helpers/report-client.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Issue 39 item 6: a cluster-overview PDF of a namespace whose Warning event has a long object name and a message
// with a long unbroken word keeps all six columns of the events table on the page, and writes every time one way.
const namespace = useNamespace('rp-tables');
const podName = 'payments-worker-7d9f8b6c5d-x2x9k-with-a-rather-long-generated-suffix';
let service: TestService;

/** pdftotext -layout of a PDF (lines as the page places them). */
function layoutText(bytes: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'report-tables-')), 'report.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

beforeAll(async () => {
  service = await startTestService();
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1
kind: Event
metadata: {name: long-warning}
type: Warning
reason: BackOff
message: Back-off restarting failed container in pod ${podName}_${namespace.name}(0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b)
count: 42
firstTimestamp: "2026-11-26T07:50:00Z"
lastTimestamp: "2026-11-26T07:59:58Z"
involvedObject: {kind: Pod, name: ${podName}, namespace: ${namespace.name}}
source: {component: kubelet}`,
    namespace.name,
  );
});

afterAll(async () => {
  await service?.close();
});

describe('report PDF tables', () => {
  it('keeps every column of the warning-events table on the page and formats dates one way', { timeout: 120_000 }, async () => {
    const created = await service.api<{ id: string }>('POST', '/api/reports', {
      token: service.adminToken,
      body: { type: 'cluster-overview', format: 'pdf', namespace: namespace.name },
    });
    expect(created.status, created.text).toBe(202);
    const events = await followReportEvents(service, created.body.id, service.adminToken);
    expect(events.at(-1)?.event).toBe('completed');
    const file = await downloadReport(service, created.body.id, service.adminToken);
    const text = layoutText(file.bytes);
    const lines = text.split('\n');
    const header = lines.find((line) => line.includes('Last seen') && line.includes('Namespace'));
    expect(header, text).toBeDefined();
    expect(header!.trim().split(/\s{2,}/)).toEqual(['Last seen', 'Namespace', 'Object', 'Reason', 'Message', 'Count']);
    const row = lines.findIndex((line) => line.includes('2026-11-26 07:59:58 UTC'));
    expect(row, text).toBeGreaterThan(-1);
    const cells = lines.slice(row, row + 12).join(' ');
    for (const part of ['BackOff', '42', 'Back-off restarting', 'failed container in', podName.slice(0, 15), '0f1e2d3c-4b5a']) expect(cells).toContain(part);
    // One way for every time on the page: no raw RFC 3339 with its T, Z or fractions.
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(text).toMatch(/Generated \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
  });
});
