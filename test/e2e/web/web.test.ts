import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';
import { deploymentYaml } from '../../helpers/manifests.js';
import { chromiumPath, launchArgs, missingForWebTests } from '../../helpers/browser.js';

// The web UI in a real headless Chromium against the real service (`-web`) and cluster.
// Needs the built bundle (`make build` builds web/dist) and /usr/bin/chromium (.ci/run installs it).
const missing = missingForWebTests();
// In CI both are installed by .ci/run and `make build`: a missing one is a failure, not a skip.
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web UI test: ${missing.join('; ')}`);

const screenshotPath = '/tmp/pilothouse-ui.png';

function podYaml(name: string, logs: string): string {
  return [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    `  name: ${name}`,
    '  annotations:',
    `    pilothouse.dev/logs: ${JSON.stringify(logs)}`,
    'spec:',
    '  containers:',
    '  - name: app',
    '    image: busybox',
  ].join('\n');
}

describe.skipIf(missing.length > 0)('web UI', () => {
  const namespace = useNamespace('webui');
  let service: TestService;
  let wire: LlmWireServer;
  let browser: Browser;
  let viewer: { username: string; password: string };
  /** Uncaught errors in the page (a React render error blanks the whole app). */
  const pageErrors: string[] = [];

  beforeAll(async () => {
    wire = await startLlmWireServer();
    const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-web-test', max_retries: 0 };
    service = await startTestService({ web: true, config: { llm: llm as never } });
    viewer = await service.createUser('viewer');
    const kubeconfig = clusterKubeconfig();
    await applyYaml(kubeconfig, podYaml('ui-first', 'hello from ui-first'), namespace.name);
    await applyYaml(kubeconfig, podYaml('ui-second', 'second pod line'), namespace.name);
    await waitFor(async () => (await runKubectl(kubeconfig, ['get', 'pod', 'ui-first', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running');
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await wire?.close();
  });

  async function signIn(username: string, password: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => pageErrors.push(`${error.message}\n${error.stack ?? ''}`));
    await page.goto(`${service.url}/resources/pods`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await page.getByLabel('Namespace').selectOption(namespace.name);
    return page;
  }

  async function openPod(page: Page, name: string): Promise<void> {
    await page.getByRole('table').getByRole('button', { name }).click();
    await page
      .getByRole('tabpanel')
      .locator('pre')
      .filter({ hasText: `name: ${name}` })
      .waitFor();
  }

  it('lets an admin browse pods, read YAML and logs, and approve the pilot’s write', { timeout: 180_000 }, async () => {
    const page = await signIn('admin', testAdminPassword);
    await page.getByRole('table').getByRole('button', { name: 'ui-second' }).waitFor();
    expect(await page.getByRole('table').locator('tbody tr').count()).toBe(2);
    expect(await page.getByText(/Kubernetes: connected/).count()).toBe(1);
    // A column header sorts (a button, so the keyboard reaches it); pressing it again reverses the order.
    const nameHeader = page.getByRole('columnheader', { name: 'NAME', exact: true });
    await nameHeader.getByRole('button').press('Enter');
    expect(await nameHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(await page.getByRole('table').locator('tbody tr').first().textContent()).toContain('ui-first');
    await nameHeader.getByRole('button').press('Enter');
    expect(await nameHeader.getAttribute('aria-sort')).toBe('descending');
    expect(await page.getByRole('table').locator('tbody tr').first().textContent()).toContain('ui-second');

    await openPod(page, 'ui-first');
    expect(await page.getByRole('tabpanel').locator('pre').textContent()).toContain('kind: Pod');
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByRole('tabpanel').locator('pre').filter({ hasText: 'hello from ui-first' }).waitFor();
    await page.getByLabel('Follow').check();
    await page.getByRole('tabpanel').locator('pre').filter({ hasText: 'hello from ui-first' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(1);

    // The pilot asks to create a ConfigMap; the card shows the class and waits for the approval.
    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: `create configmap from-web-ui -n ${namespace.name}` } }] },
      { text: ['Created the ConfigMap.'] },
    ]);
    const input = page.getByLabel('Message to the AI pilot');
    await input.fill('kubectl delete pod ui-second');
    await page.locator('.command-preview').filter({ hasText: 'dangerous' }).waitFor();
    await input.fill('Create a ConfigMap named from-web-ui');
    await input.press('Enter');
    const approve = page.getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    expect(await page.locator('.tool-card .badge-write').count()).toBe(1);
    expect(await page.locator('.tool-card .command').textContent()).toContain('create configmap from-web-ui');
    await approve.click();
    await page.getByRole('log').getByText('Created the ConfigMap.').waitFor();
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'from-web-ui', '-n', namespace.name])).code).toBe(0);
    const sent = wire.requests.find((request) => JSON.stringify(request.body ?? null).includes('Create a ConfigMap named from-web-ui'));
    expect(JSON.stringify(sent?.body ?? null)).toContain('pod/ui-first');

    await page.screenshot({ path: screenshotPath });

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'approve', exact: true }).first().waitFor();
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('lets a user ask for just-in-time access that an admin approves, then scale', { timeout: 180_000 }, async () => {
    const kubeconfig = clusterKubeconfig();
    await applyYaml(kubeconfig, deploymentYaml('ui-web'), namespace.name);
    const replicas = (): Promise<string> => runKubectl(kubeconfig, ['get', 'deployment', 'ui-web', '-n', namespace.name, '-o', 'jsonpath={.spec.replicas}']);
    const user = await service.createUser('user');

    // The user tries Scale: approval required, with a "Request access" button.
    const userPage = await signIn(user.username, user.password);
    await userPage.getByRole('link', { name: 'Deployments' }).click();
    await userPage.getByRole('table').getByRole('button', { name: 'ui-web' }).click();
    await userPage.getByRole('tab', { name: 'Scale' }).click();
    await userPage.getByLabel('Replicas').fill('3');
    await userPage.getByRole('button', { name: 'Scale', exact: true }).click();
    await userPage.getByRole('alert').filter({ hasText: 'needs an approved access request' }).waitFor();
    await userPage.getByRole('button', { name: 'Request access' }).click();
    const dialog = userPage.getByRole('dialog', { name: 'Request access' });
    expect(await dialog.getByLabel('Namespace').inputValue()).toBe(namespace.name);
    expect(await dialog.getByLabel('Resource kind').inputValue()).toBe('deployments');
    await dialog.getByLabel('Duration').selectOption('30m');
    await dialog.getByLabel('Reason').fill('scale ui-web for the web test');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await userPage.getByText('Access requested, waiting for an admin').waitFor();
    expect(await replicas()).toBe('1');

    // The user's own list shows it Pending, with Withdraw.
    await userPage.getByRole('link', { name: 'Access requests' }).click();
    const ownRow = userPage.getByRole('row').filter({ hasText: 'scale ui-web for the web test' });
    await ownRow.getByText('Pending').waitFor();
    expect(await ownRow.getByRole('button', { name: 'Withdraw' }).count()).toBe(1);
    expect(await userPage.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    // An admin (second browser context) approves it on the Access requests page.
    const adminPage = await signIn('admin', testAdminPassword);
    await adminPage.getByRole('link', { name: 'Access requests' }).click();
    const row = adminPage.getByRole('row').filter({ hasText: user.username }).filter({ hasText: 'scale ui-web for the web test' });
    await row.getByText('Pending').waitFor();
    await row.getByRole('button', { name: 'Approve' }).click();
    // The approval asks first, naming the requester and the scope, and carries a comment for them.
    const decision = adminPage.getByRole('dialog', { name: `Approve the request of ${user.username}?` });
    await decision.getByText(/execute_write · .* · deployments/).waitFor();
    await decision.getByLabel('Comment for the requester (optional)').fill('go ahead for the web test');
    await decision.getByRole('button', { name: 'Approve' }).click();
    await row.getByText('Approved').waitFor();
    expect(await row.getByText(/^until /).count()).toBe(1);
    const decided = await service.api('GET', '/api/access-requests', { token: service.adminToken });
    expect(decided.body.items.find((item: { requester: string }) => item.requester === user.username)).toMatchObject({ message: 'go ahead for the web test' });
    await adminPage.context().close();

    // Now the user's Scale works.
    await ownRow.getByText('Approved').waitFor();
    await userPage.getByRole('link', { name: 'Deployments' }).click();
    await userPage.getByRole('table').getByRole('button', { name: 'ui-web' }).click();
    await userPage.getByRole('tab', { name: 'Scale' }).click();
    await userPage.getByLabel('Replicas').fill('3');
    await userPage.getByRole('button', { name: 'Scale', exact: true }).click();
    await userPage.getByText('Scaled from 1 to 3 replicas.').waitFor();
    expect(await replicas()).toBe('3');
    await userPage.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('lets an admin see the pods on a node, cordon and uncordon it', { timeout: 120_000 }, async () => {
    const node = 'kwok-node-1';
    const kubeconfig = clusterKubeconfig();
    await applyYaml(kubeconfig, `${podYaml('ui-on-node', 'on a node')}\n  nodeName: ${node}`, namespace.name);
    const unschedulable = (): Promise<string> => runKubectl(kubeconfig, ['get', 'node', node, '-o', 'jsonpath={.spec.unschedulable}']);
    const page = await signIn('admin', testAdminPassword);
    try {
      await page.getByRole('link', { name: 'Nodes' }).click();
      await page.getByRole('table').getByRole('button', { name: node }).click();
      await page.getByRole('tab', { name: 'Pods' }).click();
      await page.getByRole('tabpanel').getByRole('cell', { name: 'ui-on-node', exact: true }).waitFor();

      await page.getByRole('tab', { name: 'Operations' }).click();
      const panel = page.getByRole('tabpanel');
      await panel.getByRole('button', { name: 'Drain…' }).waitFor();
      await panel.getByRole('button', { name: 'Cordon', exact: true }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: /→ unschedulable/ })
        .waitFor();
      expect(await unschedulable()).toBe('true');
      await panel.getByRole('button', { name: 'Uncordon', exact: true }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: /→ schedulable$/ })
        .waitFor();
      expect(['', 'false']).toContain(await unschedulable());
    } finally {
      // Other tests schedule on this node: never leave it cordoned.
      await tryKubectl(kubeconfig, ['uncordon', node]);
      await tryKubectl(kubeconfig, ['delete', 'pod', 'ui-on-node', '-n', namespace.name, '--wait=false']);
    }
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('lets an admin drain a node of its own with live progress', { timeout: 120_000 }, async () => {
    // A tainted KWOK node of this test only, so the drain disturbs no other test.
    const node = uniqueName('ui-drain');
    const kubeconfig = clusterKubeconfig();
    await applyYaml(
      kubeconfig,
      `apiVersion: v1
kind: Node
metadata:
  name: ${node}
  annotations: {kwok.x-k8s.io/node: fake}
  labels: {kubernetes.io/hostname: ${node}, type: kwok}
spec:
  taints: [{key: pilothouse.dev/web-drain-test, value: "true", effect: NoSchedule}]`,
    );
    try {
      const resources = { cpu: '8', memory: '16Gi', pods: '110' };
      await runKubectl(kubeconfig, [
        'patch',
        'node',
        node,
        '--subresource=status',
        '--type=merge',
        '-p',
        JSON.stringify({ status: { capacity: resources, allocatable: resources } }),
      ]);
      await applyYaml(kubeconfig, `${podYaml('ui-loose', 'loose pod')}\n  nodeName: ${node}`, namespace.name);
      await waitFor(
        async () => (await runKubectl(kubeconfig, ['get', 'pod', 'ui-loose', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
      );

      const page = await signIn('admin', testAdminPassword);
      await page.getByRole('link', { name: 'Nodes' }).click();
      await page.getByRole('table').getByRole('button', { name: node }).click();
      await page.getByRole('tab', { name: 'Operations' }).click();
      const panel = page.getByRole('tabpanel');
      expect(await panel.getByLabel('Ignore DaemonSet pods').isChecked()).toBe(true);

      // Without force, a pod without a controller is refused, and listed with the reason.
      await panel.getByRole('button', { name: 'Drain…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Drain', exact: true }).click();
      const refused = panel.getByRole('status').filter({ hasText: `Drain of ${node} refused.` });
      await refused.waitFor();
      expect(await refused.textContent()).toContain(`${namespace.name}/ui-loose`);

      // With force it is evicted: a progress row with its badge, then the result.
      await panel.getByLabel(/^Force/).check();
      await panel.getByRole('button', { name: 'Drain…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Drain', exact: true }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: `Drain of ${node} completed.` })
        .waitFor();
      await panel
        .locator('.drain-pods li')
        .filter({ hasText: `${namespace.name}/ui-loose` })
        .filter({ hasText: 'evicted' })
        .waitFor();
      expect(await panel.locator('progress').getAttribute('value')).toBe('1');
      expect(await runKubectl(kubeconfig, ['get', 'node', node, '-o', 'jsonpath={.spec.unschedulable}'])).toBe('true');
      await page.context().close();
      expect(pageErrors).toEqual([]);
    } finally {
      await tryKubectl(kubeconfig, ['delete', 'pod', 'ui-loose', '-n', namespace.name, '--wait=false']);
      await tryKubectl(kubeconfig, ['delete', 'node', node, '--wait=false']);
    }
  });

  it('shows a viewer the same pods without the Delete button or the admin pages', { timeout: 120_000 }, async () => {
    const page = await signIn(viewer.username, viewer.password);
    await page.getByText(viewer.username, { exact: true }).waitFor();
    await openPod(page, 'ui-second');
    await page.getByRole('complementary', { name: 'AI pilot' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Access requests' }).count()).toBe(0);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
