import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';

// Object pages, editing and fast lists in a real headless Chromium against the real service and cluster.
const webIndex = fileURLToPath(new URL('../../../web/dist/index.html', import.meta.url));
const chromiumPath = '/usr/bin/chromium';
const missing = [existsSync(webIndex) ? '' : 'web/dist is not built', existsSync(chromiumPath) ? '' : `${chromiumPath} is missing`].filter(Boolean);
if (missing.length && process.env.CI) throw new Error(`web object test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web object test: ${missing.join('; ')}`);

const launchArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];
/** Bare pods for the long list (created in one kubectl call; the list shows them whatever their phase). */
const manyPods = 200;
const bulkPods = 2;

function manyYaml(count: number): string {
  return Array.from({ length: count }, (_, index) =>
    [
      'apiVersion: v1',
      'kind: Pod',
      `metadata: {name: many-${String(index).padStart(3, '0')}, labels: {app: many}}`,
      'spec:',
      '  containers: [{name: app, image: busybox}]',
    ].join('\n'),
  ).join('\n---\n');
}

function bulkYaml(replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: bulk}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: bulk}}
  template:
    metadata:
      labels: {app: bulk}
      annotations: {pilothouse.dev/logs: "bulk line one\\nbulk line two"}
    spec:
      containers:
      - {name: app, image: busybox}`;
}

describe.skipIf(missing.length > 0)('web UI: object pages, editing, fast lists', () => {
  const namespace = useNamespace('webobj');
  const kubeconfig = clusterKubeconfig();
  let service: TestService;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    service = await startTestService({ web: true });
    await applyYaml(kubeconfig, bulkYaml(bulkPods), namespace.name);
    await runKubectl(kubeconfig, ['create', '-n', namespace.name, '-f', '-'], manyYaml(manyPods));
    await applyYaml(
      kubeconfig,
      'apiVersion: v1\nkind: Service\nmetadata: {name: bulk}\nspec:\n  selector: {app: bulk}\n  ports: [{port: 80}]\n',
      namespace.name,
    );
    await applyYaml(
      kubeconfig,
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\n  annotations: {pilothouse.dev/logs: "solo says hello\\nsecond solo line"}\nspec:\n  containers:\n  - {name: main, image: busybox}\n',
      namespace.name,
    );
    await waitFor(
      async () =>
        Number(await runKubectl(kubeconfig, ['get', 'deployment', 'bulk', '-n', namespace.name, '-o', 'jsonpath={.status.readyReplicas}'])) === bulkPods,
      120_000,
      1000,
    );
    await waitFor(async () => (await runKubectl(kubeconfig, ['get', 'pod', 'solo', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running');
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  async function signIn(path: string, options: { bypassCSP?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'], ...options });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => pageErrors.push(`${error.message}\n${error.stack ?? ''}`));
    await page.goto(`${service.url}${path}`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(testAdminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    return page;
  }

  /** Replaces the text of the CodeMirror editor on the page. */
  async function typeInEditor(page: Page, text: string): Promise<void> {
    const editor = page.getByRole('textbox', { name: 'YAML editor' });
    await editor.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  }

  it('renders a virtualized list of many pods, scrolls it, moves with j/k and keeps it live', { timeout: 180_000 }, async () => {
    const page = await signIn('/resources/pods');
    await page.getByLabel('Namespace').selectOption(namespace.name);
    await page.getByText(`${manyPods + bulkPods + 1} of ${manyPods + bulkPods + 1}`).waitFor();
    const rendered = await page.getByRole('table').locator('tbody tr').count();
    expect(rendered).toBeGreaterThan(5);
    // Only the rows in view (34 px each, as the virtualizer measures the scroller, one more at an edge) and the 12 of
    // overscan below are drawn, not all 203.
    const viewHeight = await page.locator('.virtual-scroll').evaluate((element) => (element as HTMLElement).offsetHeight);
    expect(rendered).toBeLessThanOrEqual(Math.ceil(viewHeight / 34) + 1 + 12);

    // Rows come by name: scrolled to the end, the last one ("solo") is drawn.
    const scroller = page.locator('.virtual-scroll');
    await scroller.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await page.getByRole('table').getByRole('button', { name: 'solo' }).waitFor();
    await scroller.evaluate((element) => (element.scrollTop = 0));

    // The label selector goes to the server: only the pod without the app label remains.
    await page.getByLabel('Label selector').fill('!app');
    await page.getByLabel('Label selector').press('Enter');
    await page.getByText('1 of 1').waitFor();
    await page.getByLabel('Label selector').fill('');
    await page.getByLabel('Label selector').press('Enter');
    await page.getByText(`${manyPods + bulkPods + 1} of ${manyPods + bulkPods + 1}`).waitFor();

    // `/` focuses the filter; j/k move the cursor; Enter opens.
    await scroller.focus();
    await page.keyboard.press('/');
    expect(await page.locator('input[type="search"]:focus').count()).toBe(1);
    await page.keyboard.type('solo');
    await page.getByText('1 of').waitFor();
    await scroller.focus();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'solo' }).waitFor();

    // A change in the cluster shows up in the open list without a reload.
    await page.getByRole('link', { name: 'ConfigMaps' }).click();
    await page.getByRole('heading', { name: 'ConfigMaps' }).waitFor();
    await runKubectl(kubeconfig, ['create', 'configmap', 'appears-live', '-n', namespace.name, '--from-literal=a=b']);
    await page.getByRole('table').getByRole('button', { name: 'appears-live' }).waitFor({ timeout: 10_000 });

    // Pods and nodes get CPU and memory columns from metrics.k8s.io (usage against allocatable for nodes).
    await page.getByRole('link', { name: 'Pods' }).click();
    await page.getByRole('columnheader', { name: 'CPU' }).waitFor();
    await page.getByRole('link', { name: 'Nodes' }).click();
    await page.getByRole('columnheader', { name: 'MEMORY' }).waitFor();
    await page
      .getByRole('cell', { name: /^\d+m \(\d+%\)$/ })
      .first()
      .waitFor();
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('opens a deep-linked pod page with summary, YAML, describe, events, related and logs', { timeout: 120_000 }, async () => {
    const pods = await runKubectl(kubeconfig, ['get', 'pods', '-n', namespace.name, '-l', 'app=bulk', '-o', 'jsonpath={.items[0].metadata.name}']);
    const page = await signIn(`/resources/pods/${namespace.name}/${pods}`);
    await page.getByRole('heading', { name: pods }).waitFor();
    await page.getByRole('tabpanel').getByText('Kind', { exact: true }).waitFor();
    expect(await page.getByRole('tabpanel').textContent()).toContain('Pod');
    await page.getByRole('tab', { name: 'YAML' }).click();
    await page.getByRole('tabpanel').locator('pre').filter({ hasText: 'kind: Pod' }).waitFor();
    expect(page.url()).toContain(`/resources/pods/${namespace.name}/${pods}/yaml`);
    await page.getByRole('tab', { name: 'Describe' }).click();
    await page.getByRole('tabpanel').locator('pre').filter({ hasText: 'Containers:' }).waitFor();
    await page.getByRole('tab', { name: 'Events' }).click();
    await page
      .getByRole('tabpanel')
      .getByText(/Scheduled|No events for this object/)
      .first()
      .waitFor();
    await page.getByRole('tab', { name: 'Related' }).click();
    await page
      .getByRole('tabpanel')
      .getByRole('link', { name: /^bulk-/ })
      .first()
      .waitFor();
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByRole('tabpanel').locator('pre').filter({ hasText: 'bulk line two' }).waitFor();
    await page.getByLabel('Search logs').fill('two');
    expect(await page.getByRole('tabpanel').locator('pre').textContent()).not.toContain('bulk line one');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe(`${pods}-app.log`);
    // A port forward starts from the pod's page: the form offers the pod's ports.
    await page.getByText(`Port forward to ${pods}`).click();
    await page
      .getByRole('form', { name: `Port forward to ${pods}` })
      .getByRole('button', { name: 'Start forward' })
      .waitFor();

    // The events of an object are listed live on its page.
    const now = new Date().toISOString();
    await applyYaml(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Event',
        'metadata: {name: solo.pilothouse-test}',
        `involvedObject: {apiVersion: v1, kind: Pod, name: solo, namespace: ${namespace.name}}`,
        'reason: PilothouseTest',
        'message: an event about solo',
        'type: Normal',
        'count: 1',
        'source: {component: web-objects-test}',
        `firstTimestamp: "${now}"`,
        `lastTimestamp: "${now}"`,
      ].join('\n'),
      namespace.name,
    );
    await page.goto(`${service.url}/resources/pods/${namespace.name}/solo/events`);
    await page.getByRole('tabpanel').getByRole('cell', { name: 'PilothouseTest' }).waitFor();

    // A cluster-scoped object's page has `_` for the namespace.
    await page.goto(`${service.url}/resources/nodes/_/kwok-node-0`);
    await page.getByRole('heading', { name: 'kwok-node-0' }).waitFor();
    await page.getByRole('tabpanel').getByText('Kind', { exact: true }).waitFor();
    expect(await page.getByRole('tabpanel').textContent()).toContain('Node');

    // The service's page lists the pods its selector picks.
    await page.goto(`${service.url}/resources/services/${namespace.name}/bulk/related`);
    await page.getByRole('region', { name: 'Pods' }).getByRole('link', { name: pods }).waitFor();
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('runs a command in the pod terminal', { timeout: 120_000 }, async () => {
    const page = await signIn(`/resources/pods/${namespace.name}/solo/terminal`);
    await page
      .getByRole('status')
      .filter({ hasText: /^Connected$/ })
      .waitFor();
    // Type once the shell has printed its prompt.
    await page
      .locator('.xterm-rows')
      .filter({ hasText: /[$#] ?/ })
      .waitFor();
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.type('echo term-$((40+2))\n');
    await page.locator('.xterm-rows').filter({ hasText: 'term-42' }).waitFor();
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('edits an object: review the dry-run diff, apply, see conflicts with their manager', { timeout: 120_000 }, async () => {
    // Created through the apply API, so Pilothouse's field manager owns its fields.
    const created = await service.api('POST', '/api/k8s/configmaps/apply', {
      token: service.adminToken,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'editable', namespace: namespace.name }, data: { color: 'blue' } },
    });
    expect(created.status).toBe(200);
    const page = await signIn(`/resources/configmaps/${namespace.name}/editable`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'YAML editor' }).filter({ hasText: 'color: blue' }).waitFor();
    await typeInEditor(page, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: editable\n  namespace: ${namespace.name}\ndata:\n  color: green\n`);
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('textbox', { name: 'After apply (server dry run)' }).filter({ hasText: 'color: green' }).waitFor();
    await page.getByRole('textbox', { name: 'Live object' }).filter({ hasText: 'color: blue' }).waitFor();
    expect(await runKubectl(kubeconfig, ['get', 'configmap', 'editable', '-n', namespace.name, '-o', 'jsonpath={.data.color}'])).toBe('blue');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Applied the changes to editable' }).waitFor();
    expect(await runKubectl(kubeconfig, ['get', 'configmap', 'editable', '-n', namespace.name, '-o', 'jsonpath={.data.color}'])).toBe('green');

    // Another manager takes the field; our next change conflicts and names it.
    await runKubectl(kubeconfig, ['patch', 'configmap', 'editable', '-n', namespace.name, '--field-manager', 'night-shift', '-p', '{"data":{"color":"red"}}']);
    await page.getByRole('button', { name: 'Edit' }).click();
    await typeInEditor(page, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: editable\n  namespace: ${namespace.name}\ndata:\n  color: purple\n`);
    await page.getByRole('button', { name: 'Review changes' }).click();
    const conflicts = page.getByRole('alert').filter({ hasText: 'Other field managers own these fields' });
    await conflicts.getByRole('cell', { name: '.data.color' }).waitFor();
    await conflicts.getByRole('cell', { name: 'night-shift' }).waitFor();
    await page.getByRole('textbox', { name: 'After apply (server dry run)' }).filter({ hasText: 'color: purple' }).waitFor();
    expect(await runKubectl(kubeconfig, ['get', 'configmap', 'editable', '-n', namespace.name, '-o', 'jsonpath={.data.color}'])).toBe('red');
    await page.getByRole('button', { name: 'Apply anyway (take ownership)' }).click();
    await page.getByRole('status').filter({ hasText: 'Applied the changes to editable' }).waitFor();
    expect(await runKubectl(kubeconfig, ['get', 'configmap', 'editable', '-n', namespace.name, '-o', 'jsonpath={.data.color}'])).toBe('purple');
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('flags YAML errors in the editor and creates an object from YAML', { timeout: 120_000 }, async () => {
    const page = await signIn('/resources/configmaps');
    await page.getByLabel('Namespace').selectOption(namespace.name);
    await page.getByRole('button', { name: 'Create from YAML' }).click();
    await typeInEditor(
      page,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\n  namespace: ${namespace.name}\n  labels: {version: 2}\ndata:\n  note: hi\n`,
    );
    // The kind's OpenAPI schema says label values are strings.
    await page.locator('.cm-lintRange-error').first().waitFor();
    await typeInEditor(
      page,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\n  namespace: ${namespace.name}\n  labels: {version: "2"}\ndata:\n  note: hi\n`,
    );
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('textbox', { name: 'After apply (server dry run)' }).filter({ hasText: 'note: hi' }).waitFor();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('heading', { name: 'from-yaml' }).waitFor();
    expect(await runKubectl(kubeconfig, ['get', 'configmap', 'from-yaml', '-n', namespace.name, '-o', 'jsonpath={.data.note}'])).toBe('hi');
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('has no serious or critical accessibility violations on the list, the object page and the editor', { timeout: 120_000 }, async () => {
    // axe-core is injected as an inline script, which the service's CSP forbids: this context alone bypasses it.
    const page = await signIn(`/resources/pods`, { bypassCSP: true });
    const axeSource = readFileSync(fileURLToPath(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');
    const violations = async (where: string): Promise<string[]> => {
      await page.addScriptTag({ content: axeSource });
      const found = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } })
          .axe;
        return (await axe.run()).violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      });
      return found.map((violation) => `${where}: ${violation.id} ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
    };
    await page.getByLabel('Namespace').selectOption(namespace.name);
    await page.getByText(`${manyPods + bulkPods + 1} of ${manyPods + bulkPods + 1}`).waitFor();
    const found = await violations('pod list');
    await page.goto(`${service.url}/resources/pods/${namespace.name}/solo`);
    await page.getByRole('tabpanel').getByText('Kind', { exact: true }).waitFor();
    found.push(...(await violations('pod page')));
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'YAML editor' }).waitFor();
    found.push(...(await violations('editor')));
    expect(found).toEqual([]);
    await page.context().close();
  });
});
