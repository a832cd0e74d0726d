import { rmSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchArgs, missingForWebTests, signInAt } from '../../helpers/browser.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';

// Issue 39, found in use in the second hour (web, Chromium at 1440×900 and 1024×768 with the pilot panel open):
// columns sized by content with actions in view, a header that wraps, no sideways page scroll, a drawer title clear of
// its buttons; and a lost connection that says so once and recovers by itself.
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web second-hour layout test: ${missing.join('; ')}`);

const admin = { username: 'admin', password: testAdminPassword };
const sizes = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
];
const kubectl = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), args);

/** True when the element's text is not cut: its content fits its box (no ellipsis, nothing hidden). */
async function fits(cell: Locator): Promise<boolean> {
  return cell.evaluate((element: HTMLElement) => element.scrollWidth <= element.clientWidth + 1);
}

/** True when the whole element is on screen: inside the window and inside every scrolling box around it. */
async function inView(element: Locator): Promise<boolean> {
  return element.evaluate((target: HTMLElement) => {
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.left < -1 || box.right > window.innerWidth + 1) return false;
    for (let parent = target.parentElement; parent; parent = parent.parentElement) {
      const style = getComputedStyle(parent);
      if (style.overflowX === 'visible') continue;
      const clip = parent.getBoundingClientRect();
      if (box.left < clip.left - 1 || box.right > clip.right + 1) return false;
    }
    return true;
  });
}

/** True when the page itself does not scroll sideways. */
async function noSidewaysScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
}

/** A new signed-in page at this size with the pilot panel open. */
async function openAt(browser: Browser, url: string, size: { width: number; height: number }, errors: string[]): Promise<Page> {
  const page = await signInAt(browser, url, admin, errors);
  await page.setViewportSize(size);
  await page.locator('#chat-panel').waitFor();
  return page;
}

describe.skipIf(missing.length > 0)('web: the second hour, layout', () => {
  const namespace = useNamespace('web-layout');
  let service: TestService;
  let browser: Browser;
  const pageErrors: string[] = [];
  const longName = `payments-reconciliation-worker-${'x'.repeat(150)}`;

  beforeAll(async () => {
    service = await startTestService({ web: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
    const node = await kubectl('get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}');
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1
kind: Pod
metadata: {name: crashing-payments-worker, labels: {app: payments}}
spec:
  nodeName: ${node}
  containers: [{name: main, image: busybox}]
---
apiVersion: v1
kind: Event
metadata: {name: long-object-warning}
type: Warning
reason: FailedMount
message: MountVolume.SetUp failed for volume "config" because the configmap was not found in this namespace
involvedObject: {kind: ConfigMap, name: ${longName}, namespace: ${namespace.name}}
source: {component: kubelet}
count: 1
firstTimestamp: '${now}'
lastTimestamp: '${now}'`,
      namespace.name,
    );
    await waitFor(
      async () => (await kubectl('get', 'pod', 'crashing-payments-worker', '-n', namespace.name, '-o', 'jsonpath={.status.phase}')) === 'Running',
      60_000,
    );
    await kubectl(
      'patch',
      'pod',
      'crashing-payments-worker',
      '-n',
      namespace.name,
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({
        status: {
          containerStatuses: [
            { name: 'main', image: 'busybox', imageID: '', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } },
          ],
        },
      }),
    );
    // Something for each page's action column: a finished report, a pending access request, audit entries with a command.
    const user = await service.createUser('user');
    const asked = await service.api('POST', '/api/access-requests', {
      token: user.token,
      body: { permission: 'execute_write', namespaces: [namespace.name], reason: 'incident 77', ttl: '1h' },
    });
    expect(asked.status, asked.text).toBe(201);
    const report = await service.api<{ id: string }>('POST', '/api/reports', {
      token: service.adminToken,
      body: { type: 'cluster-overview', format: 'csv', namespace: namespace.name },
    });
    expect(report.status, report.text).toBe(202);
    await waitFor(async () => (await service.api('GET', `/api/reports/${report.body.id}`, { token: service.adminToken })).body.status === 'completed', 60_000);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  for (const size of sizes) {
    it(`keeps STATUS, node use and every action column in view with the pilot open at ${size.width}×${size.height}`, { timeout: 180_000 }, async () => {
      const page = await openAt(browser, `${service.url}/resources/pods?namespace=${namespace.name}`, size, pageErrors);
      const row = page.getByRole('row').filter({ hasText: 'crashing-payments-worker' });
      const status = row.getByRole('cell', { name: 'CrashLoopBackOff', exact: true }).first();
      await status.waitFor();
      expect(await row.count()).toBe(1);
      expect(await fits(status)).toBe(true);

      await page.goto(`${service.url}/resources/nodes`);
      const usage = page.getByRole('cell', { name: /\(\d+%\)$/ });
      await usage.first().waitFor({ timeout: 60_000 });
      for (const cell of await usage.all()) expect(await fits(cell), (await cell.textContent()) ?? '').toBe(true);

      await page.goto(`${service.url}/reports`);
      const download = page.getByRole('link', { name: /Download/ }).or(page.getByRole('button', { name: /Download/ }));
      await download.first().waitFor();
      expect(await inView(download.first())).toBe(true);

      await page.goto(`${service.url}/access-requests`);
      const pending = page.getByRole('row').filter({ hasText: 'incident 77' });
      for (const action of ['Approve', 'Deny']) {
        const button = pending.getByRole('button', { name: action });
        await button.waitFor();
        expect(await inView(button), action).toBe(true);
      }

      await page.goto(`${service.url}/admin/audit`);
      const details = page.locator('main td.details-cell').first();
      await details.waitFor();
      expect(await inView(details)).toBe(true);

      await page.goto(`${service.url}/overview?namespace=${namespace.name}`);
      const events = page.locator('section[aria-labelledby="overview-events"]');
      await events.locator('td', { hasText: 'payments-reconciliation-worker' }).first().waitFor();
      const widths = await events.evaluate((card: HTMLElement) => ({
        card: card.clientWidth,
        table: card.querySelector('table')?.getBoundingClientRect().width ?? 0,
      }));
      expect(widths.table <= widths.card, JSON.stringify(widths)).toBe(true);
      expect(await inView(events.locator('td', { hasText: 'MountVolume.SetUp failed' }).first())).toBe(true);
      await page.context().close();
      expect(pageErrors).toEqual([]);
    });
  }

  it('fits 1024×768 with the pilot open: the header wraps, nothing scrolls sideways, the drawer title clears its buttons', { timeout: 120_000 }, async () => {
    const size = { width: 1024, height: 768 };
    const page = await openAt(browser, `${service.url}/overview`, size, pageErrors);
    const logout = page.getByRole('button', { name: 'Log out' });
    expect(await inView(logout)).toBe(true);
    expect(await fits(page.locator('.topbar'))).toBe(true);
    expect(await noSidewaysScroll(page)).toBe(true);

    await page.goto(`${service.url}/resources/pods?namespace=${namespace.name}`);
    await page.getByRole('button', { name: 'crashing-payments-worker', exact: true }).click();
    const drawer = page.locator('.drawer-header');
    await drawer.locator('#drawer-title').waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    const overlaps = await drawer.evaluate((header: HTMLElement) => {
      const title = header.querySelector('.drawer-title')?.getBoundingClientRect();
      if (!title) return ['no title'];
      return [...header.querySelectorAll('button, a')]
        .map((control) => ({ control, box: control.getBoundingClientRect() }))
        .filter(({ box }) => box.left < title.right && box.right > title.left && box.top < title.bottom && box.bottom > title.top)
        .map(({ control }) => control.textContent ?? '');
    });
    expect(overlaps).toEqual([]);
    for (const control of await drawer.locator('button, a').all()) expect(await inView(control), (await control.textContent()) ?? '').toBe(true);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});

describe.skipIf(missing.length > 0)('web: the second hour, a lost connection', () => {
  const home = useNamespace('web-reconnect');
  let service: TestService;
  let browser: Browser;
  const pageErrors: string[] = [];
  const dataDir = `${process.env.TMPDIR ?? '/tmp'}/pilothouse-reconnect-${process.pid}`;
  // The same data (sessions' signing key) and the same Pilothouse namespace after the restart, as a real restart keeps them.
  const options = (port?: number): Parameters<typeof startTestService>[0] => ({ web: true, dataDir, port, config: { kubernetes: { namespace: home.name } } });

  beforeAll(async () => {
    service = await startTestService(options());
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows one Reconnecting banner and a grey dot while the service is away, and every view recovers by itself', { timeout: 180_000 }, async () => {
    const page = await signInAt(browser, `${service.url}/overview`, admin, pageErrors);
    const health = page.getByRole('status', { name: 'Cluster health' });
    await health.getByText('Healthy').waitFor();
    const version = page.getByTestId('cluster-version');
    await expect.poll(() => version.textContent()).toMatch(/^v\d/);
    // Leave the overview, so that coming back while the service is away asks for its cards again.
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.getByRole('heading', { level: 1 }).first().waitFor();

    const port = Number(new URL(service.url).port);
    await service.close();
    const banner = page.getByRole('alert').filter({ hasText: 'Reconnecting…' });
    await banner.waitFor({ timeout: 60_000 });
    expect(await page.getByRole('alert').filter({ hasText: 'Reconnecting…' }).count()).toBe(1);
    expect(await health.getAttribute('data-tone')).toBe('unknown');
    expect(await health.textContent()).not.toContain('Healthy');
    await page.getByRole('link', { name: 'Overview' }).first().click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    service = await startTestService(options(port));
    await banner.waitFor({ state: 'detached', timeout: 60_000 });
    await health.getByText('Healthy').waitFor();
    // The cards ask again on their own: no navigation, no reload.
    await expect.poll(() => version.textContent(), { timeout: 30_000 }).toMatch(/^v\d/);
    await page.locator('section[aria-labelledby="overview-cluster"] [role="alert"]').waitFor({ state: 'detached' });
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
