import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNamespace } from '../../helpers/cluster.js';
import { chat, type ChatEvent } from '../../helpers/chat-stream.js';
import { parseCsv } from '../../helpers/csv.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';
import { chromiumPath, launchArgs, missingForWebTests, signInAt } from '../../helpers/browser.js';
import type { AuditEntry } from '../../../src/audit/types.js';

// Issue 39, item 26: every decision on a tool call is audited in one shape (a human reject is `deny` on
// `tool/kubectl` with the command, like a timeout), and the Audit page filters by from, to and cluster and
// exports the filtered rows as CSV and JSON (web, Chromium).
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web audit test: ${missing.join('; ')}`);

const kubectl = (command: string) => ({ name: 'kubectl', arguments: { command } });

describe.skipIf(missing.length > 0)('audit: one shape for decisions, filters and export', () => {
  const namespace = useNamespace('audit-decisions');
  let service: TestService;
  let wire: LlmWireServer;
  let browser: Browser;
  const pageErrors: string[] = [];
  const commands = { rejected: '', timedOut: '', approved: '' };

  /** Runs one chat turn whose tool call the admin decides (or, with undefined, lets time out). */
  async function decided(command: string, approved: boolean | undefined): Promise<void> {
    wire.script([{ toolCalls: [kubectl(command)] }, { text: ['Done.'] }]);
    const onEvent = async (event: ChatEvent): Promise<void> => {
      if (event.event !== 'tool_request' || approved === undefined) return;
      await service.api('POST', '/api/tool/approve', { token: service.adminToken, body: { id: event.data.id, approved } });
    };
    const run = await chat(service, { message: `please: ${command}` }, { token: service.adminToken, onEvent });
    expect(run.nth('tool_request')).toMatchObject({ requiresApproval: true });
  }

  // The recorded command is the whole line (`kubectl create …`).
  const rowOf = (rows: AuditEntry[], command: string): AuditEntry | undefined => rows.find((row) => String(row.details.command).endsWith(command));

  beforeAll(async () => {
    wire = await startLlmWireServer();
    service = await startTestService({
      web: true,
      config: {
        llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-audit-test', max_retries: 0 } as never,
        authorization: { tool_approval: { timeout: '4s' } } as never,
      },
    });
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
    commands.rejected = `create configmap rejected-by-human -n ${namespace.name}`;
    commands.timedOut = `create configmap nobody-decided -n ${namespace.name}`;
    commands.approved = `create configmap approved-by-human -n ${namespace.name}`;
    await decided(commands.rejected, false);
    await decided(commands.timedOut, undefined);
    await decided(commands.approved, true);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await wire?.close();
  });

  it('records a human reject like a timeout: deny, tool/kubectl, the command; an approve likewise', async () => {
    const rejects = (await service.api<{ items: AuditEntry[] }>('GET', '/api/audit?action=reject&limit=100', { token: service.adminToken })).body.items;
    const human = rowOf(rejects, commands.rejected);
    const timeout = rowOf(rejects, commands.timedOut);
    expect(human).toMatchObject({ action: 'reject', resource: 'tool/kubectl', decision: 'deny', user: 'admin', outcome: 'rejected', cluster: 'home' });
    expect(timeout).toMatchObject({ action: 'reject', resource: 'tool/kubectl', decision: 'deny', outcome: 'timeout', cluster: 'home' });
    expect(Object.keys(human!.details)).toEqual(expect.arrayContaining(['id', 'command', 'reason']));
    expect(Object.keys(timeout!.details)).toEqual(expect.arrayContaining(['id', 'command', 'reason']));
    const approves = (await service.api<{ items: AuditEntry[] }>('GET', '/api/audit?action=approve&limit=100', { token: service.adminToken })).body.items;
    expect(rowOf(approves, commands.approved)).toMatchObject({
      action: 'approve',
      resource: 'tool/kubectl',
      decision: 'allow',
      user: 'admin',
      cluster: 'home',
    });
    // One row per decision: no second row naming the chat instead of the tool.
    expect(rejects.filter((row) => row.resource.startsWith('chat/'))).toEqual([]);
  });

  async function applyFilters(page: Page, filters: { action?: string; from?: string; to?: string; cluster?: string }): Promise<void> {
    const form = page.locator('form.filters');
    if (filters.action !== undefined) await form.getByLabel('Action').selectOption(filters.action);
    await form.getByLabel('From').fill(filters.from ?? '');
    await form.getByLabel('To').fill(filters.to ?? '');
    await form.getByLabel('Cluster').fill(filters.cluster ?? '');
    await form.getByRole('button', { name: 'Apply' }).click();
  }

  it('filters the Audit page by from, to and cluster, and exports the filtered rows as CSV and JSON', { timeout: 120_000 }, async () => {
    const page = await signInAt(browser, `${service.url}/admin/audit`, { username: 'admin', password: testAdminPassword }, pageErrors);
    const table = page.getByRole('table');
    await applyFilters(page, { action: 'reject', from: '2000-01-01T00:00', to: '2100-01-01T00:00', cluster: 'home' });
    await table.getByText(commands.rejected).waitFor();
    await table.getByText(commands.timedOut).waitFor();
    expect(await table.getByText(commands.approved).count()).toBe(0);

    // Another cluster, or a window in the future: nothing matches.
    await applyFilters(page, { action: 'reject', cluster: 'elsewhere' });
    await page.getByText('No audit entries match.').waitFor();
    await applyFilters(page, { action: 'reject', from: '2099-01-01T00:00', to: '2100-01-01T00:00' });
    await page.getByText('No audit entries match.').waitFor();

    await applyFilters(page, { action: 'reject', cluster: 'home' });
    await table.getByText(commands.rejected).waitFor();
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = parseCsv(readFileSync((await csvDownload.path())!, 'utf8')).filter((row) => row.length > 1);
    const header = csv[0] ?? [];
    expect(header).toEqual(expect.arrayContaining(['timestamp', 'user', 'action', 'resource', 'cluster', 'decision', 'command']));
    const rows = csv.slice(1).map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]])));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((row) => row.action === 'reject' && row.cluster === 'home')).toBe(true);
    expect(rows.find((row) => row.command?.endsWith(commands.rejected))).toMatchObject({ resource: 'tool/kubectl', decision: 'deny' });

    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const exported = JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8')) as AuditEntry[];
    expect(rowOf(exported, commands.rejected)).toMatchObject({ resource: 'tool/kubectl', decision: 'deny' });
    expect(rowOf(exported, commands.timedOut)).toMatchObject({ resource: 'tool/kubectl', outcome: 'timeout' });
    expect(exported.every((row) => row.action === 'reject')).toBe(true);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
