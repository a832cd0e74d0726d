import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNamespace, waitFor } from '../../helpers/cluster.js';
import { chromiumPath, launchArgs, missingForWebTests } from '../../helpers/browser.js';
import { startOidcProvider, type OidcProviderHandle } from '../../helpers/oidc-provider.js';
import { startPostgres, type RunningPostgres } from '../../helpers/postgres.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// OIDC sign-ins in progress are shared state (ADR 0032): started on one replica, finished on another,
// against a real OpenID Provider driven in real Chromium; three replicas on one throw-away PostgreSQL.
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`HA SSO test cannot run: ${missing.join('; ')}`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(missing.length > 0)('OIDC sign-ins across replicas', () => {
  const own = useNamespace('ha-sso-ph');
  let postgres: RunningPostgres;
  let op: OidcProviderHandle;
  let replicas: [TestService, TestService, TestService];
  let browser: Browser;

  beforeAll(async () => {
    postgres = await startPostgres();
    const ports = [await freePort(), await freePort(), await freePort()];
    // Behind one Service the provider knows one redirect URL: here, replica B's.
    const callback = `http://127.0.0.1:${ports[1]}/api/auth/oidc/callback`;
    op = await startOidcProvider({
      clients: [{ client_id: 'pilothouse', client_secret: 'test-client-secret', redirect_uris: [callback], post_logout_redirect_uris: [] }],
      users: [{ sub: 'sub-bob', preferred_username: 'bob', groups: ['devs'] }],
    });
    process.env.SSO_TEST_CLIENT_SECRET = 'test-client-secret';
    const config = {
      database: { url: postgres.url, timeout: '2s' },
      authorization: { jwt: { signing_key: randomBytes(32).toString('hex') } },
      kubernetes: { namespace: own.name },
      oidc: {
        issuer: op.issuer,
        client_id: 'pilothouse',
        client_secret: '${SSO_TEST_CLIENT_SECRET}',
        redirect_url: callback,
        ca_file: op.caFile,
        role_mappings: { groups: { devs: 'user' } },
      },
    } as never;
    const started: TestService[] = [];
    for (const port of ports) started.push(await startTestService({ port, authMode: 'oidc', config }));
    replicas = started as [TestService, TestService, TestService];
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all((replicas ?? []).map((replica) => replica.close()));
    await op?.close();
    postgres?.remove();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    return page;
  }

  async function providerLogin(page: Page, login: string): Promise<void> {
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any-password');
    await page.locator('button[type="submit"]').click();
  }

  it('a browser sign-in started on A completes on B (its cookie binding kept), and the session works on C', { timeout: 120_000 }, async () => {
    const [a, b, c] = replicas;
    const page = await newPage();
    await page.goto(`${a.url}/api/auth/oidc/login`);
    await providerLogin(page, 'bob');
    await page.waitForURL(/\/login\/sso#/);
    const landed = new URL(page.url());
    expect(landed.port).toBe(new URL(b.url).port);
    const token = new URLSearchParams(landed.hash.slice(1)).get('token') ?? '';
    expect((await c.api('GET', '/api/auth/me', { token })).body).toMatchObject({ username: 'oidc:bob', role: 'user' });
    await page.context().close();
  });

  it('a callback on B from a browser without the sign-in cookie of A is still refused (browser_mismatch)', { timeout: 120_000 }, async () => {
    const [a, b] = replicas;
    const page = await newPage();
    // The redirect of A, followed by hand so the binding cookie never reaches this browser.
    const started = await fetch(`${a.url}/api/auth/oidc/login`, { redirect: 'manual' });
    await page.goto(started.headers.get('location') ?? '');
    await providerLogin(page, 'bob');
    await page.waitForURL((url) => url.port === new URL(b.url).port);
    expect(await page.textContent('body')).toContain('browser_mismatch');
    await page.context().close();
  });

  it('a device sign-in started on A is polled to completion on C and handed out once (then unknown on B)', { timeout: 120_000 }, async () => {
    const [a, b, c] = replicas;
    const start = await a.api('POST', '/api/auth/oidc/device', { body: {} });
    expect(start.status).toBe(200);
    const handle = start.body.handle as string;
    expect((await c.api('POST', '/api/auth/oidc/device/token', { body: { handle } })).body).toMatchObject({ status: 'pending' });
    const page = await newPage();
    await page.goto(start.body.verificationUriComplete as string);
    await page.locator('button[type="submit"]').first().click();
    await providerLogin(page, 'bob');
    let done: { status: number; body: Record<string, unknown> } | undefined;
    await waitFor(async () => {
      const polled = await c.api('POST', '/api/auth/oidc/device/token', { body: { handle } });
      if (polled.body.status === 'pending') return false;
      done = polled;
      return true;
    });
    expect(done).toMatchObject({ status: 200, body: { status: 'complete', username: 'oidc:bob' } });
    expect((await b.api('GET', '/api/auth/me', { token: done!.body.token as string })).status).toBe(200);
    const again = await b.api('POST', '/api/auth/oidc/device/token', { body: { handle } });
    expect(again).toMatchObject({ status: 401, body: { details: { reason: 'unknown_device_handle' } } });
    await page.context().close();
  });
});
