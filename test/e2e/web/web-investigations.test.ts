import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/audit/types.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';
import { chromiumPath, launchArgs, missingForWebTests, signInAt } from '../../helpers/browser.js';

// Issue 37 in Chromium: the Investigations page follows a run live (Running, then Concluded without a reload),
// shows the findings with their evidence, and an admin's approval of a suggested action (after a confirmation)
// runs it once, as the admin; the button is gone afterwards.
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web investigations test: ${missing.join('; ')}`);

describe.skipIf(missing.length > 0)('web: the Investigations page', () => {
  const target = useNamespace('web-investigations');
  let service: TestService;
  let wire: LlmWireServer;
  let browser: Browser;
  const pageErrors: string[] = [];
  const replicas = (): Promise<string> => runKubectl(clusterKubeconfig(), ['get', 'deployment', 'shop', '-n', target.name, '-o', 'jsonpath={.spec.replicas}']);

  beforeAll(async () => {
    wire = await startLlmWireServer();
    const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-web-investigations', max_retries: 0 };
    service = await startTestService({ web: true, config: { llm: llm as never } as never });
    await runKubectl(clusterKubeconfig(), ['create', 'deployment', 'shop', '--image=nginx', '--replicas=1', '-n', target.name]);
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await wire?.close();
  });

  it('asks, follows the run live, shows the findings, and runs an approved action once as the admin', { timeout: 180_000 }, async () => {
    // The first model call answers slowly (the scripted model waits between its frames), so the run stays Running for a while.
    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: `get deployment shop -n ${target.name} -o name` } }], delayMs: 3000 },
      {
        toolCalls: [
          {
            name: 'conclude',
            arguments: {
              summary: 'shop runs a single replica.',
              findings: [{ title: 'One replica only', detail: 'shop has no headroom', evidence: 'deployment.apps/shop replicas=1' }],
              suggestedActions: [{ command: `kubectl scale deployment shop --replicas=2 -n ${target.name}`, rationale: 'headroom for the sale' }],
            },
          },
        ],
      },
    ]);
    const page = await signInAt(browser, `${service.url}/investigations`, { username: 'admin', password: testAdminPassword }, pageErrors);
    const form = page.getByRole('form', { name: 'Ask the pilot to investigate' });
    await form.getByLabel('Question').fill('Why is shop slow?');
    await form.getByLabel('Kind').fill('Deployment');
    await form.getByLabel('Namespace').fill(target.name);
    await form.getByLabel('Name', { exact: true }).fill('shop');
    await form.getByRole('button', { name: 'Investigate' }).click();
    const item = page.getByRole('listitem').filter({ hasText: 'Why is shop slow?' });
    await item.getByText('Running', { exact: true }).waitFor();
    // No reload: the list is live.
    await item.getByText('Concluded', { exact: true }).waitFor({ timeout: 60_000 });
    await item.getByText('shop runs a single replica.').waitFor();
    if ((await item.getByRole('heading', { name: 'Findings' }).count()) === 0) await item.getByRole('button').first().click();
    await item.getByText('One replica only').waitFor();
    await item.getByText('deployment.apps/shop replicas=1').waitFor();
    await item.getByText('(write)').waitFor();

    // Approve asks first, naming the command; Cancel runs nothing.
    const command = `kubectl scale deployment shop --replicas=2 -n ${target.name}`;
    await item.getByRole('button', { name: 'Approve and run' }).click();
    const dialog = page.getByRole('dialog', { name: `Run ${command}?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await replicas()).toBe('1');
    await item.getByRole('button', { name: 'Approve and run' }).click();
    await page
      .getByRole('dialog', { name: `Run ${command}?` })
      .getByRole('button', { name: 'Approve and run' })
      .click();
    await page.getByText(/^Ran: /).waitFor();
    await waitFor(async () => (await replicas()) === '2');
    await item.getByText('approved by admin').waitFor();
    expect(await item.getByRole('button', { name: 'Approve and run' }).count()).toBe(0);

    // Once, as the admin, audited with the investigation.
    const name = (
      (await service.api('GET', '/api/investigations', { token: service.adminToken })).body.items as {
        metadata: { name: string };
        spec: { question: string };
      }[]
    ).find((investigation) => investigation.spec.question === 'Why is shop slow?')?.metadata.name;
    const audit = await service.api<{ items: AuditEntry[] }>('GET', '/api/audit?user=admin&limit=200', { token: service.adminToken });
    const rows = audit.body.items.filter((row) => (row.details as { investigation?: string } | undefined)?.investigation === name);
    expect(rows.map((row) => `${row.action}:${row.decision}`).sort()).toEqual(['approve:allow', 'execute:allow']);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
