import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchArgs, missingForWebTests, signInAt } from '../../helpers/browser.js';
import { serveDemoChartRepository, type ChartRepository } from '../../helpers/chart-repository.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';

// Issue 39 item 7 and issue 35's ownership marks, in Chromium on a real helm release and a real cluster: a release's
// page shows its chart, app version, NOTES and a formatted "Updated"; Upgrade prefills the chart and keeps the
// previous values unless told to replace them; an object Flux manages says so on its page.
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web release and managed-object test: ${missing.join('; ')}`);

describe.skipIf(missing.length > 0)('web: a helm release page and a GitOps-managed object', () => {
  const namespace = useNamespace('web-release');
  let service: TestService;
  let browser: Browser;
  let charts: ChartRepository;
  let wire: LlmWireServer;
  const pageErrors: string[] = [];
  const admin = { username: 'admin', password: testAdminPassword };
  const greeting = (): Promise<string> =>
    runKubectl(clusterKubeconfig(), ['get', 'configmap', 'shelf-settings', '-n', namespace.name, '-o', 'jsonpath={.data.greeting}']);

  beforeAll(async () => {
    charts = await serveDemoChartRepository();
    wire = await startLlmWireServer();
    const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-web-release', max_retries: 0 };
    service = await startTestService({ web: true, config: { llm: llm as never, helm: { allow_http: true, allow_private_urls: true } } });
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
    const installed = await service.api('POST', '/api/helm/install', {
      token: service.adminToken,
      body: { name: 'shelf', namespace: namespace.name, chart: 'demo', repo: charts.url, values: { greeting: 'kept' } },
    });
    expect(installed.status, installed.text).toBe(201);
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await wire?.close();
    charts?.close();
  });

  it('shows the chart, app version, NOTES and a formatted Updated; Upgrade prefills the chart and keeps the values', { timeout: 180_000 }, async () => {
    const details = await service.api('GET', `/api/helm/releases/shelf?namespace=${namespace.name}`, { token: service.adminToken });
    expect(details.body).toMatchObject({ chart: 'demo-0.1.0', appVersion: '1.0.0' });
    expect(details.body.notes).toContain(`kubectl get configmap shelf-settings -n ${namespace.name} -o yaml`);

    const page = await signInAt(browser, `${service.url}/helm/releases/${namespace.name}/shelf`, admin, pageErrors);
    const facts = page.locator('dl.overview-facts');
    await facts.getByText('demo-0.1.0', { exact: true }).waitFor();
    await facts.getByText('1.0.0', { exact: true }).waitFor();
    expect(await page.getByTestId('release-notes').innerText()).toContain('The greeting "kept" is in ConfigMap shelf-settings');
    const updated = await page.getByTestId('release-updated').innerText();
    expect(updated).not.toBe('');
    expect(updated).not.toMatch(/\d{4}-\d{2}-\d{2}T|\+0000|UTC/);

    await page.getByRole('tab', { name: 'Upgrade' }).click();
    const form = page.getByRole('form', { name: 'Upgrade' });
    expect(await form.getByLabel('Chart (repo/chart, or a name with a repository URL)').inputValue()).toBe('demo');
    const keep = form.getByRole('radio', { name: 'Keep the previous values' });
    expect(await keep.isChecked()).toBe(true);
    await form.getByText("The release's current values are kept").waitFor();
    await form.getByRole('radio', { name: 'Replace the values' }).check();
    await form.getByText("the chart's defaults apply").waitFor();
    await keep.check();
    // Upgrading without retyping anything keeps the release's values (the chart's repository is the one it came from).
    await form.getByRole('button', { name: 'Upgrade' }).click();
    await waitFor(
      async () => (await service.api('GET', `/api/helm/releases/shelf?namespace=${namespace.name}`, { token: service.adminToken })).body.revision === 2,
      90_000,
    );
    expect(await greeting()).toBe('kept');
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('says on the page of a Deployment Flux applies, and on the approval card of a scale of it, that Flux manages it', { timeout: 120_000 }, async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: fleet-web
  labels: {kustomize.toolkit.fluxcd.io/name: apps, kustomize.toolkit.fluxcd.io/namespace: flux-system}
spec:
  replicas: 1
  selector: {matchLabels: {app: fleet-web}}
  template:
    metadata: {labels: {app: fleet-web}}
    spec: {containers: [{name: main, image: busybox}]}`,
      namespace.name,
    );
    const page = await signInAt(browser, `${service.url}/resources/deployments/${namespace.name}/fleet-web`, admin, pageErrors);
    await page.getByRole('note').getByText('Managed by Flux Kustomization apps (flux-system)').waitFor();

    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: `kubectl scale deployment/fleet-web -n ${namespace.name} --replicas=2` } }] },
      { text: ['Left as it is.'] },
    ]);
    const panel = page.locator('#chat-panel');
    if (!(await panel.isVisible())) await page.getByRole('button', { name: 'AI pilot' }).click();
    const input = page.getByLabel('Message to the AI pilot');
    await input.fill('Scale fleet-web to 2');
    await input.press('Enter');
    const card = page.locator('.tool-card');
    await card
      .getByRole('list', { name: 'Managed by GitOps' })
      .getByText(`A manual change to deployment/fleet-web -n ${namespace.name} will be reverted by Flux Kustomization apps (flux-system).`)
      .waitFor();
    await card.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('log').getByText('Left as it is.').waitFor();
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
