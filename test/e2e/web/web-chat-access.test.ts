import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { chromiumPath, launchArgs, missingForWebTests, signInAt } from '../../helpers/browser.js';

// Issue 23, finding 7: when the policy refuses an approved AI write for want of an access request,
// the chat's tool card offers "Request access" in place, prefilled with exactly the refused scope.
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web chat access test: ${missing.join('; ')}`);

describe.skipIf(missing.length > 0)('web chat: Request access in the tool card', () => {
  const namespace = useNamespace('webchat-access');
  let service: TestService;
  let wire: LlmWireServer;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    wire = await startLlmWireServer();
    const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-web-access', max_retries: 0 };
    service = await startTestService({ web: true, config: { llm: llm as never } });
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([service?.close(), wire?.close()]);
  });

  it('files the access request the refused write needs and shows its state', { timeout: 120_000 }, async () => {
    const user = await service.createUser('user');
    const page = await signInAt(browser, `${service.url}/resources/pods`, user, pageErrors);
    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: `create configmap needs-grant -n ${namespace.name} --from-literal=a=b` } }] },
      { text: ['The policy refused it: request access first.'] },
    ]);
    const input = page.getByLabel('Message to the AI pilot');
    await input.fill('Create a ConfigMap named needs-grant');
    await input.press('Enter');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('log').getByText('The policy refused it: request access first.').waitFor();
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'needs-grant', '-n', namespace.name])).code).not.toBe(0);

    const card = page.locator('.tool-card');
    await card.getByText(`execute_write on configmaps in ${namespace.name}`).waitFor();
    await card.getByRole('button', { name: 'Request access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request access' });
    expect(await dialog.getByLabel('Namespace').inputValue()).toBe(namespace.name);
    expect(await dialog.getByLabel('Resource kind').inputValue()).toBe('configmaps');
    await dialog.getByLabel('Reason').fill('the pilot needs it');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await card.getByRole('status').getByText('Pending').waitFor();

    const listed = await service.api('GET', '/api/access-requests', { token: user.token });
    expect(listed.body.items).toHaveLength(1);
    const id: string = listed.body.items[0].id;
    const spec = JSON.parse(
      await runKubectl(clusterKubeconfig(), ['get', 'accessrequests.pilothouse.dev', id, '-n', service.namespace, '-o', 'jsonpath={.spec}']),
    );
    expect(spec).toMatchObject({ requester: user.username, permission: 'execute_write', namespaces: [namespace.name], resources: ['configmaps'] });

    // The card follows the request: an admin's approval shows there.
    expect((await service.api('POST', `/api/access-requests/${id}/approve`, { token: service.adminToken, body: {} })).status).toBe(200);
    await card.getByRole('status').getByText('Approved').waitFor({ timeout: 15_000 });
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
