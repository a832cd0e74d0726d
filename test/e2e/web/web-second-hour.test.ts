import { chromium, type Browser } from 'playwright-core';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';
import { chromiumPath, launchArgs, missingForWebTests, signInAt } from '../../helpers/browser.js';

// Issue 39, found in use in the second hour (web, Chromium): a pilot panel with no model says how to connect one;
// the forms' name patterns are live in the browser (a pattern invalid under the v flag is silently ignored).
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web second-hour test: ${missing.join('; ')}`);

describe.skipIf(missing.length > 0)('web: the second hour', () => {
  const namespace = useNamespace('web-second-hour');
  let service: TestService;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // No llm keys, no base URL: the AI is unconfigured.
    service = await startTestService({ web: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('says in one line how to connect a model when none is connected', { timeout: 120_000 }, async () => {
    const admin = { username: 'admin', password: testAdminPassword };
    const page = await signInAt(browser, `${service.url}/`, admin, pageErrors);
    const panel = page.locator('#chat-panel');
    if (!(await panel.isVisible())) await page.getByRole('button', { name: 'AI pilot' }).click();
    await panel
      .getByRole('note')
      .getByText(/No AI model is connected\..*Settings → AI.*llm\.provider/)
      .waitFor();
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('keeps the YAML editor readable in dark mode and lets its lint markers load under the page policy', { timeout: 120_000 }, async () => {
    const created = await service.api('POST', '/api/k8s/configmaps/apply', {
      token: service.adminToken,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dark-editor', namespace: 'default' }, data: { color: 'blue' } },
    });
    expect(created.status).toBe(200);
    const policy = (await fetch(`${service.url}/`)).headers.get('Content-Security-Policy') ?? '';
    expect(policy).toMatch(/img-src 'self' data:/);
    const admin = { username: 'admin', password: testAdminPassword };
    const page = await signInAt(browser, `${service.url}/overview`, admin, pageErrors);
    await page.evaluate(() => window.localStorage.setItem('pilothouse.theme', 'dark'));
    await page.goto(`${service.url}/resources/configmaps/default/dark-editor`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'YAML editor' }).filter({ hasText: 'color: blue' });
    await editor.waitFor();
    // The contrast of the key `color` and of the gutter against the editor's background (WCAG AA asks 4.5:1).
    const contrasts = await page.evaluate(() => {
      const channels = (colour: string): number[] => (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const luminance = (colour: string): number => {
        const [r = 0, g = 0, b = 0] = channels(colour).map((value) => {
          const scaled = value / 255;
          return scaled <= 0.03928 ? scaled / 12.92 : ((scaled + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const ratio = (left: string, right: string): number => {
        const [light, dark] = [luminance(left), luminance(right)].sort((a, b) => b - a);
        return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
      };
      const editorElement = document.querySelector('.yaml-editor .cm-editor') as HTMLElement;
      const background = getComputedStyle(editorElement).backgroundColor;
      const key = [...document.querySelectorAll('.yaml-editor .cm-line span')].find((span) => span.textContent === 'color') as HTMLElement;
      const gutter = document.querySelector('.yaml-editor .cm-gutters') as HTMLElement;
      return { key: ratio(getComputedStyle(key).color, background), gutter: ratio(getComputedStyle(gutter).color, getComputedStyle(gutter).backgroundColor) };
    });
    expect(contrasts.key).toBeGreaterThanOrEqual(4.5);
    expect(contrasts.gutter).toBeGreaterThanOrEqual(4.5);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('rolls a deployment back from its History tab after a confirmation naming the revision and image', { timeout: 180_000 }, async () => {
    const manifest = (image: string): string =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: rollme}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: rollme}}\n  template:\n    metadata: {labels: {app: rollme}}\n    spec:\n      containers: [{name: web, image: ${image}}]`;
    const revision = (): Promise<string> =>
      runKubectl(clusterKubeconfig(), [
        'get',
        'deployment',
        'rollme',
        '-n',
        namespace.name,
        '-o',
        'jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}',
      ]);
    const image = (): Promise<string> =>
      runKubectl(clusterKubeconfig(), ['get', 'deployment', 'rollme', '-n', namespace.name, '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);
    await applyYaml(clusterKubeconfig(), manifest('nginx:1.25'), namespace.name);
    await waitFor(async () => (await revision()) === '1');
    await applyYaml(clusterKubeconfig(), manifest('nginx:1.27'), namespace.name);
    await waitFor(async () => (await revision()) === '2');

    const admin = { username: 'admin', password: testAdminPassword };
    const page = await signInAt(browser, `${service.url}/resources/deployments/${namespace.name}/rollme`, admin, pageErrors);
    await page.getByRole('tab', { name: 'History' }).click();
    const first = page.getByRole('row').filter({ hasText: 'nginx:1.25' });
    await first.getByRole('button', { name: 'Roll back' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll rollme back to revision 1?' });
    await dialog.getByText('nginx:1.25').waitFor();
    // Cancel changes nothing; the confirmation rolls back.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await image()).toBe('nginx:1.27');
    await first.getByRole('button', { name: 'Roll back' }).click();
    await page.getByRole('dialog', { name: 'Roll rollme back to revision 1?' }).getByRole('button', { name: 'Roll back' }).click();
    await page.getByRole('status').filter({ hasText: 'Rolled back to revision 1' }).waitFor();
    await waitFor(async () => (await image()) === 'nginx:1.25');
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('validates a Helm repository name in the browser before anything is sent', { timeout: 120_000 }, async () => {
    const admin = { username: 'admin', password: testAdminPassword };
    const page = await signInAt(browser, `${service.url}/helm/repositories`, admin, pageErrors);
    const form = page.getByRole('form', { name: 'Add repository' });
    const name = form.getByLabel('Name');
    await name.fill('-Bad_Name');
    expect(await name.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
    await name.fill('good-name');
    expect(await name.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(false);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});

describe.skipIf(missing.length > 0)('web: the pilot’s answers', () => {
  let service: TestService;
  let wire: LlmWireServer;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    wire = await startLlmWireServer();
    const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-web-markdown', max_retries: 0 };
    // A short approval timeout, so the card's countdown reaches its end within the test.
    const authorization = { tool_approval: { timeout: '4s' } };
    service = await startTestService({ web: true, config: { llm: llm as never, authorization: authorization as never } });
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([service?.close(), wire?.close()]);
  });

  it('counts a waiting approval down and says when it timed out, instead of failing silently', { timeout: 120_000 }, async () => {
    const page = await signInAt(browser, `${service.url}/`, { username: 'admin', password: testAdminPassword }, pageErrors);
    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: 'create configmap countdown -n default --from-literal=a=b' } }] },
      { text: ['It timed out.'] },
    ]);
    const input = page.getByLabel('Message to the AI pilot');
    await input.fill('create a configmap');
    await input.press('Enter');
    const timer = page.locator('.tool-card').last().getByRole('timer');
    await timer.getByText(/Waiting for your approval: [1-4] s left/).waitFor();
    // Whichever comes first, the card's own count reaching zero or the service's timeout, the card says so.
    const card = page.locator('.tool-card').last();
    await card
      .getByText(/Timed out: the call was not run|No decision in time/)
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await card.getByRole('button', { name: 'Approve', disabled: false }).count()).toBe(0);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('draws the assistant’s Markdown (bold, lists, code) and never as markup or raw markers', { timeout: 120_000 }, async () => {
    const page = await signInAt(browser, `${service.url}/`, { username: 'admin', password: testAdminPassword }, pageErrors);
    wire.script([{ text: ['**payments-worker** is crashing:\n\n- OOMKilled\n- exit `137`\n\n<img src=x onerror="window.hacked=1">'] }]);
    const input = page.getByLabel('Message to the AI pilot');
    await input.fill('what is broken?');
    await input.press('Enter');
    const answer = page.locator('.message-assistant .message-text').last();
    await answer.locator('strong', { hasText: 'payments-worker' }).waitFor();
    expect(await answer.locator('li').allTextContents()).toEqual(['OOMKilled', 'exit 137']);
    expect(await answer.locator('code').allTextContents()).toEqual(['137']);
    expect(await answer.innerText()).not.toContain('**');
    expect(await answer.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
