import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchArgs, missingForWebTests, seriousAxeViolations, signInAt } from '../../helpers/browser.js';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { useSecondCluster } from '../../helpers/second-cluster.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';

// The web UI across clusters (issue 29, ADR 0035) in real Chromium against the real service and two real
// clusters: the shared test cluster is `home`, a second one of this file is `second`. The switcher in the
// header changes what every list shows, the URL carries the cluster (a reload keeps it, links keep it), and
// the all-clusters overview shows both, a killed cluster as down while the other keeps answering.
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web clusters test: ${missing.join('; ')}`);

describe.skipIf(missing.length > 0)('web UI across clusters', () => {
  const home = useNamespace('webclusters');
  const second = useSecondCluster(2);
  const secondNamespace = uniqueName('webclusters-second');
  let service: TestService;
  let browser: Browser;
  const pageErrors: string[] = [];
  const signIn = (path: string): Promise<Page> => signInAt(browser, `${service.url}${path}`, { username: 'admin', password: testAdminPassword }, pageErrors);
  const pod = (name: string, extra = ''): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:${extra}
  containers: [{name: app, image: busybox}]
`;

  beforeAll(async () => {
    const kubeconfig = second.current.kubeconfig;
    await runKubectl(kubeconfig, ['create', 'namespace', secondNamespace]);
    await applyYaml(clusterKubeconfig(), pod('only-on-home'), home.name);
    // On the second cluster: one pod that runs and one that can never be scheduled (not ready).
    await applyYaml(kubeconfig, pod('only-on-second'), secondNamespace);
    await applyYaml(kubeconfig, pod('stuck-on-second', '\n  nodeSelector: {pilothouse.dev/no-such-node: "true"}'), secondNamespace);
    service = await startTestService({
      web: true,
      config: { cluster: { name: 'home', secrets: false }, clusters: [{ name: 'second', kubeconfig }] } as never,
    });
    await waitFor(async () => {
      const listed = await service.api<{ items: { name: string; reachable: boolean }[] }>('GET', '/api/clusters', { token: service.adminToken });
      return listed.status === 200 && listed.body.items.every((cluster) => cluster.reachable);
    }, 60_000);
    // A pending access request on the second cluster (a user asks for a write there).
    const user = await service.createUser('user');
    const asked = await service.api('POST', '/api/access-requests?cluster=second', {
      token: user.token,
      body: { permission: 'execute_write', namespaces: [secondNamespace], resources: ['deploy'], reason: 'web clusters test', ttl: '1h' },
    });
    expect(asked.status, asked.text).toBe(201);
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('switches clusters from the header: the lists change, the URL carries the cluster, a reload and links keep it', { timeout: 180_000 }, async () => {
    const page = await signIn('/resources/pods');
    const table = page.getByRole('table');
    await table.getByRole('button', { name: 'only-on-home' }).waitFor();
    expect(await table.getByRole('button', { name: 'only-on-second' }).count()).toBe(0);
    const switcher = page.getByRole('combobox', { name: /^Cluster/ });
    expect(await switcher.inputValue()).toBe('home');
    await expect.poll(() => page.getByTestId('cluster-state').textContent()).toMatch(/v1\.\d+/);

    await switcher.selectOption('second');
    await page.waitForURL(/\/resources\/pods\?cluster=second$/);
    await table.getByRole('button', { name: 'only-on-second' }).waitFor();
    await table.getByRole('button', { name: 'stuck-on-second' }).waitFor();
    expect(await table.getByRole('button', { name: 'only-on-home' }).count()).toBe(0);

    // A reload keeps the cluster: the URL is the state.
    await page.reload();
    await table.getByRole('button', { name: 'only-on-second' }).waitFor();
    expect(await page.getByRole('combobox', { name: /^Cluster/ }).inputValue()).toBe('second');
    expect(await table.getByRole('button', { name: 'only-on-home' }).count()).toBe(0);

    // Navigation keeps it: the namespaces list is the second cluster's.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Namespaces' }).click();
    await page.waitForURL(/\/resources\/namespaces\?cluster=second$/);
    await table.getByRole('button', { name: secondNamespace }).waitFor();
    expect(await table.getByRole('button', { name: home.name }).count()).toBe(0);

    // Back to home with the switcher.
    await page.getByRole('combobox', { name: /^Cluster/ }).selectOption('home');
    await page.waitForURL(/\/resources\/namespaces\?cluster=home$/);
    await table.getByRole('button', { name: home.name }).waitFor();
    expect(await table.getByRole('button', { name: secondNamespace }).count()).toBe(0);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('shows every cluster on the all-clusters overview; a killed cluster shows as down while the other keeps answering', { timeout: 180_000 }, async () => {
    const page = await signIn('/clusters');
    await page.getByRole('heading', { name: 'All clusters', level: 1 }).waitFor();
    const row = (name: string) => page.getByTestId(`cluster-row-${name}`);
    await expect.poll(() => row('second').getByTestId('cluster-nodes-second').textContent(), { timeout: 30_000 }).toBe('2 of 2');
    await expect.poll(() => row('second').getByTestId('cluster-pods-second').textContent()).toBe('1');
    await expect.poll(() => row('second').getByTestId('cluster-requests-second').textContent()).toBe('1');
    await expect.poll(() => row('home').getByTestId('cluster-requests-home').textContent()).toBe('0');
    await expect.poll(() => row('home').getByTestId('cluster-nodes-home').textContent()).toMatch(/^\d+ of \d+$/);
    expect(await row('home').getByTestId('cluster-status-home').textContent()).toBe('reachable');
    expect(await row('second').getByTestId('cluster-status-second').textContent()).toBe('reachable');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A cluster's name opens its overview on that cluster.
    await row('second')
      .getByRole('link', { name: /second/ })
      .click();
    await page.waitForURL(/\/overview\?cluster=second$/);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(await page.getByRole('combobox', { name: /^Cluster/ }).inputValue()).toBe('second');

    // The second cluster dies: the overview says so (the probe runs every 10 s), home still answers.
    await second.current.kill();
    await page.goto(`${service.url}/clusters`);
    await expect.poll(() => row('second').getByTestId('cluster-status-second').textContent(), { timeout: 60_000, interval: 2_000 }).toBe('down');
    await expect.poll(() => row('home').getByTestId('cluster-nodes-home').textContent(), { timeout: 30_000 }).toMatch(/^\d+ of \d+$/);
    expect(await row('home').getByTestId('cluster-status-home').textContent()).toBe('reachable');
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
