import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml } from '../../helpers/kubectl.js';
import { deploymentYaml } from '../../helpers/manifests.js';
import { rootDirectory } from '../../helpers/paths.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { TmuxPane } from '../../helpers/tmux.js';
import { ApiClient } from '../../../src/tui/api/client.js';
import { ReportsApi, type ReportEvent } from '../../../src/tui/reports/reports-api.js';

// `:reports` in the terminal UI end to end: `node bin/pilothouse tui` (dist/, built by `npx tsc -p tsconfig.build.json`)
// in a 120×40 tmux pane against the real test cluster; the service generates the reports for real.

const namespace = useNamespace('tui-reports');
const program = join(rootDirectory, 'bin', 'pilothouse');
let service: TestService;
let user: { username: string; password: string; token: string };
let pane: TmuxPane | undefined;

const temporary = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

/** The TUI against the test service, signed in with `token`, started in `directory` (where enter saves reports). */
function remote(token: string, directory: string, extra: string[] = []): TmuxPane {
  const tokenFile = join(temporary('ph-tui-token-'), 'token');
  writeFileSync(tokenFile, token, { mode: 0o600 });
  const argv = [process.execPath, program, 'tui', '--url', service.url, '--token-file', tokenFile, '-n', namespace.name, ...extra];
  pane = TmuxPane.start(['sh', '-c', 'cd "$1" && shift && exec "$@"', 'sh', directory, ...argv], { HOME: temporary('ph-tui-home-') });
  return pane;
}

async function openReports(tui: TmuxPane): Promise<void> {
  await tui.waitFor(/pods\(/);
  tui.keys(':');
  tui.type('reports');
  tui.keys('Enter');
  await tui.waitFor(/reports\[\d+\]/);
}

beforeAll(async () => {
  service = await startTestService();
  user = await service.createUser('user');
  await applyYaml(clusterKubeconfig(), deploymentYaml('web'), namespace.name);
});

afterEach(() => {
  pane?.stop();
  pane = undefined;
});

afterAll(async () => {
  await service?.close();
});

describe('pilothouse tui :reports', () => {
  it('requests a report from the form, shows its bar reach completed, and enter saves it in the current directory', async () => {
    const directory = temporary('ph-tui-reports-');
    const tui = remote(user.token, directory);
    await openReports(tui);
    await tui.waitFor('No reports yet');

    tui.keys('n');
    await tui.waitFor(/New report/);
    expect(tui.screen()).toMatch(new RegExp(`Namespace: ${namespace.name}`));
    tui.keys('Down', 'Right');
    await tui.waitFor(/Format: < html >/);
    tui.keys('Enter');
    await tui.waitFor(/Requested report cluster-overview \(html, /);
    const done = await tui.waitFor(/completed\s+█{12} 100%/, 120_000);
    expect(done).toMatch(new RegExp(`cluster-overview\\s+html\\s+${namespace.name}\\s+completed`));

    tui.keys('Enter');
    const saved = await tui.waitFor(/Saved \S+\.html/);
    const file = /Saved (\S+\.html)/.exec(saved)?.[1] ?? '';
    expect(file.startsWith(directory)).toBe(true);
    expect(readdirSync(directory)).toEqual([expect.stringMatching(new RegExp(`^cluster-overview-${namespace.name}-\\d{8}-\\d{4}\\.html$`))]);
    expect(readFileSync(join(directory, readdirSync(directory)[0]!), 'utf8')).toMatch(/<html/i);
  });

  it('draws the bar in ASCII, saves a PDF where the prompt says, and deletes the report after a y/n naming it', async () => {
    const start = temporary('ph-tui-reports-start-');
    const target = temporary('ph-tui-reports-target-');
    const tui = remote(service.adminToken, start, ['--ascii']);
    await openReports(tui);
    tui.keys('n');
    await tui.waitFor(/Type: < cluster-overview >/);
    tui.keys('Right');
    await tui.waitFor(/Type: < security-assessment >/);
    tui.keys('Enter');
    await tui.waitFor(/security-assessment\s+pdf\s+\S+\s+completed\s+#{12} 100%/, 120_000);
    expect(tui.screen()).not.toMatch(/[█░]/);

    // The report just requested is selected (the html report of the first case is listed below it).
    tui.keys('o');
    await tui.waitFor(/Save into directory:/);
    tui.keys('C-u');
    tui.type(target);
    tui.keys('Enter');
    await tui.waitFor(/Saved \S+\.pdf/);
    const [name] = readdirSync(target);
    expect(name).toMatch(new RegExp(`^security-assessment-${namespace.name}-\\d{8}-\\d{4}\\.pdf$`));
    expect(readFileSync(join(target, name!)).subarray(0, 5).toString()).toBe('%PDF-');
    expect(readdirSync(start)).toEqual([]);

    tui.keys('C-d');
    await tui.waitFor(new RegExp(`Delete report security-assessment \\(pdf, ${namespace.name}\\)\\? \\(y/n\\)`));
    tui.keys('n');
    // The decline was handled (the question is gone) and the next delete asks again: the report was kept.
    await tui.waitForGone(`Delete report security-assessment (pdf, ${namespace.name})?`);
    tui.keys('C-d');
    await tui.waitFor(/Delete report security-assessment/);
    const before = await service.api<{ items: Array<{ type: string }> }>('GET', '/api/reports', { token: service.adminToken });
    expect(before.body.items.some((item) => item.type === 'security-assessment')).toBe(true);
    tui.keys('y');
    await tui.waitFor(/Deleted report security-assessment/);
    const after = await service.api<{ items: Array<{ type: string }> }>('GET', '/api/reports', { token: service.adminToken });
    expect(after.body.items.some((item) => item.type === 'security-assessment')).toBe(false);
    expect(existsSync(join(target, name!))).toBe(true);
  });

  it('lists exactly the keys of the reports view under ?, without ctrl-d under --readonly', async () => {
    const tui = remote(user.token, temporary('ph-tui-reports-'), ['--readonly']);
    await openReports(tui);
    tui.keys('?');
    const help = await tui.waitFor(/Keys of the reports view/);
    for (const shown of ['<n>', '<enter>', '<o>', '<g/G>']) expect(help).toContain(shown);
    expect(help).not.toContain('<ctrl-d>');
  });

  it('follows a report over its progress stream (what moves the bar) until completed, then downloads it', async () => {
    const api = new ReportsApi(new ApiClient(service.url, { session: { token: user.token } }));
    const id = await api.request({ type: 'cluster-overview', format: 'markdown', namespace: namespace.name });
    const events: ReportEvent[] = [];
    for await (const event of api.events(id, new AbortController().signal)) events.push(event);
    const last = events.at(-1);
    const completed = last?.kind === 'status' ? last.report : undefined;
    expect(completed).toMatchObject({ id, status: 'completed', progress: 100, format: 'markdown' });
    const directory = temporary('ph-tui-reports-api-');
    const path = await api.download(completed!, directory);
    expect(path).toMatch(new RegExp(`^${directory}/cluster-overview-${namespace.name}-\\d{8}-\\d{4}\\.md$`));
    expect(readFileSync(path, 'utf8')).toMatch(/^#/m);
    await api.remove(id);
    expect((await api.list()).some((report) => report.id === id)).toBe(false);
  });
});
