import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';
import { chromiumPath, launchArgs, missingForWebTests } from '../../helpers/browser.js';

// Issue 39 items 14 and 25 (web, Chromium at 1440×900 and 1024×768): a risky click asks first (rolling restart,
// port-forward stop, access request deny with its comment); a port forward's notice goes with the forward, its
// address is a link, a Service's forward is listed as the Service.
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web risky-clicks test: ${missing.join('; ')}`);

const small = { width: 1024, height: 768 };
const viewports = [{ width: 1440, height: 900 }, small];

describe.skipIf(missing.length > 0)('web: risky clicks and port forwards', () => {
  const namespace = useNamespace('web-risky');
  let service: TestService;
  let browser: Browser;
  let podSide: Server;
  const pageErrors: string[] = [];
  const kubectl = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), [...args, '-n', namespace.name]);

  async function signIn(path: string, viewport: { width: number; height: number }, user = { username: 'admin', password: testAdminPassword }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => pageErrors.push(`${error.message}\n${error.stack ?? ''}`));
    await page.goto(`${service.url}${path}`);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    return page;
  }

  /** The element is wholly inside the window's width (nothing to scroll sideways for). */
  const fitsWidth = async (page: Page, element: Locator): Promise<boolean> => {
    const box = await element.boundingBox();
    return !!box && box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0);
  };
  /** A dialog is wholly inside the window (its buttons reachable without scrolling). */
  const dialogFits = async (page: Page, dialog: Locator): Promise<boolean> => {
    const box = await dialog.boundingBox();
    const size = page.viewportSize();
    return !!box && !!size && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
  };

  beforeAll(async () => {
    podSide = createServer((request, response) => response.end(`hello from the pod side ${request.url}`));
    await new Promise<void>((resolve) => podSide.listen(0, '127.0.0.1', resolve));
    const podSidePort = (podSide.address() as AddressInfo).port;
    service = await startTestService({ web: true });
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1
kind: Pod
metadata:
  name: api-0
  labels: {app: api}
  annotations: {pilothouse.dev/forward-80: "127.0.0.1:${podSidePort}"}
spec:
  containers: [{name: api, image: nginx, ports: [{containerPort: 80, name: http}]}]
---
apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  selector: {app: api}
  ports: [{port: 8080, targetPort: 80, name: http}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: restartme}
spec:
  replicas: 1
  selector: {matchLabels: {app: restartme}}
  template:
    metadata: {labels: {app: restartme}}
    spec:
      containers: [{name: web, image: nginx}]`,
      namespace.name,
    );
    await waitFor(async () => (await kubectl('get', 'pod', 'api-0', '-o', 'jsonpath={.status.phase}')) === 'Running');
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    podSide?.close();
  });

  for (const viewport of viewports) {
    it(
      `forwards to a Service, lists it as the Service with a link, and Stop asks first and takes the notice away (${viewport.width}×${viewport.height})`,
      { timeout: 120_000 },
      async () => {
        const page = await signIn('/port-forwards', viewport);
        await page.getByLabel('Namespace').selectOption(namespace.name);
        await page.getByRole('combobox', { name: /^Forward to/ }).selectOption('services');
        await page.getByRole('combobox', { name: /^Name(?!space)/ }).selectOption('api');
        const start = page.getByRole('form', { name: 'Port forward to api' });
        await start.getByRole('button', { name: 'Start forward' }).click();
        const notice = start.getByRole('status').filter({ hasText: 'Forwarding on' });
        const link = notice.getByRole('link');
        const address = (await link.textContent()) ?? '';
        expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
        expect(await link.getAttribute('href')).toBe(`http://${address}/`);
        expect(await (await fetch(`http://${address}/through-the-service`)).text()).toBe('hello from the pod side /through-the-service');

        const target = `${namespace.name}/service/api:80`;
        const row = page.getByRole('row').filter({ hasText: target });
        await row.getByText('active').waitFor();
        await row.getByText('through pod api-0').waitFor();
        expect(await row.getByRole('link', { name: address }).getAttribute('href')).toBe(`http://${address}/`);
        // The forwards table, its Stop button included, fits the window.
        expect(await fitsWidth(page, page.getByRole('table', { name: 'Port forwards' }))).toBe(true);

        // Stop asks, naming the target and the address; Cancel keeps the forward.
        await row.getByRole('button', { name: `Stop the forward to ${target}` }).click();
        const dialog = page.getByRole('dialog', { name: `Stop the forward to ${target}?` });
        await dialog.getByText(address).waitFor();
        expect(await dialogFits(page, dialog)).toBe(true);
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        expect((await fetch(`http://${address}/still`)).ok).toBe(true);
        await row.getByRole('button', { name: `Stop the forward to ${target}` }).click();
        await page
          .getByRole('dialog', { name: `Stop the forward to ${target}?` })
          .getByRole('button', { name: 'Stop' })
          .click();
        await page.getByText(/Port forward pf-\w+ stopped\./).waitFor();
        await waitFor(async () => (await page.getByRole('row').filter({ hasText: target }).count()) === 0);
        // The "Forwarding on …" notice went with the forward.
        await waitFor(async () => (await notice.count()) === 0);
        await page.context().close();
        expect(pageErrors).toEqual([]);
      },
    );
  }

  it('asks before a rolling restart, naming the deployment; Cancel restarts nothing', { timeout: 120_000 }, async () => {
    const restartedAt = (): Promise<string> =>
      kubectl('get', 'deployment', 'restartme', '-o', 'jsonpath={.spec.template.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}');
    const page = await signIn(`/resources/deployments/${namespace.name}/restartme`, small);
    await page.getByRole('tab', { name: 'Scale' }).click();
    await page.getByRole('button', { name: 'Rolling restart' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restart restartme?' });
    await dialog.getByText(`Every pod of deployment restartme in ${namespace.name}`).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await restartedAt()).toBe('');
    await page.getByRole('button', { name: 'Rolling restart' }).click();
    await page.getByRole('dialog', { name: 'Restart restartme?' }).getByRole('button', { name: 'Rolling restart' }).click();
    await page.getByText('Restart requested.').waitFor();
    await waitFor(async () => (await restartedAt()) !== '');
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it('denies an access request after a confirmation naming the requester, with a comment they read', { timeout: 120_000 }, async () => {
    const user = await service.createUser('user');
    const filed = await service.api('POST', '/api/access-requests', {
      token: user.token,
      body: { permission: 'execute_write', namespaces: [namespace.name], resources: ['deployments'], ttl: '30m', reason: 'restart for the deny test' },
    });
    expect(filed.status, filed.text).toBe(201);
    const page = await signIn('/access-requests', small);
    const row = page.getByRole('row').filter({ hasText: 'restart for the deny test' });
    await row.getByText('Pending').waitFor();
    await row.getByRole('button', { name: 'Deny' }).click();
    const dialog = page.getByRole('dialog', { name: `Deny the request of ${user.username}?` });
    await dialog.getByText(/execute_write · .* · deployments/).waitFor();
    expect(await dialogFits(page, dialog)).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await row.getByText('Pending').waitFor();
    await row.getByRole('button', { name: 'Deny' }).click();
    const again = page.getByRole('dialog', { name: `Deny the request of ${user.username}?` });
    await again.getByLabel('Comment for the requester (optional)').fill('not during the freeze');
    await again.getByRole('button', { name: 'Deny' }).click();
    await row.getByText('Denied').waitFor();
    const mine = await service.api('GET', '/api/access-requests', { token: user.token });
    expect(mine.body.items.find((item: { reason?: string }) => item.reason === 'restart for the deny test')).toMatchObject({
      phase: 'Denied',
      message: 'not during the freeze',
    });
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
