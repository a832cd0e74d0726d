import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchArgs } from '../../helpers/browser.js';
import { startOidcProvider, type OidcProviderHandle } from '../../helpers/oidc-provider.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { freePort } from '../../helpers/slapd.js';

// Unauthenticated callers cannot deny SSO sign-in (security review four, finding 6): a browser sign-in
// keeps no server state before the provider answers (its verifier, nonce and state are sealed in the
// sign-in cookie), and device sign-ins are capped per client address.
const missing = existsSync(chromiumPath) ? [] : [`${chromiumPath} is missing`];
if (missing.length && process.env.CI) throw new Error(`SSO sign-in state test cannot run: ${missing.join('; ')}`);

describe.skipIf(missing.length > 0)('SSO sign-in state', () => {
  let op: OidcProviderHandle;
  let service: TestService;
  let browser: Browser;
  /** Added to the service's clock (its sign-in expiry), never to the provider's. */
  let offset = 0;

  beforeAll(async () => {
    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/api/auth/oidc/callback`;
    op = await startOidcProvider({
      clients: [{ client_id: 'pilothouse', client_secret: 'test-client-secret', redirect_uris: [callback], post_logout_redirect_uris: [] }],
      users: [{ sub: 'sub-dana', preferred_username: 'dana', groups: ['devs'] }],
    });
    process.env.SSO_TEST_CLIENT_SECRET = 'test-client-secret';
    service = await startTestService({
      port,
      authMode: 'oidc',
      clock: () => Date.now() + offset,
      config: {
        server: { trusted_proxies: ['127.0.0.1'] },
        oidc: {
          issuer: op.issuer,
          client_id: 'pilothouse',
          client_secret: '${SSO_TEST_CLIENT_SECRET}',
          redirect_url: callback,
          ca_file: op.caFile,
          role_mappings: { groups: { devs: 'user' } },
        },
      } as never,
    });
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await op?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    return page;
  }

  /** A sign-in start as a script makes it: the sign-in cookie (name=value) and the state sent to the provider. */
  async function start(headers: Record<string, string> = {}): Promise<{ cookie: string; state: string }> {
    const response = await fetch(`${service.url}/api/auth/oidc/login`, { redirect: 'manual', headers });
    expect(response.status).toBe(302);
    const state = new URL(response.headers.get('location') ?? '').searchParams.get('state') ?? '';
    return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '', state };
  }

  const callbackWith = (state: string, cookie: string) =>
    service.api('GET', `/api/auth/oidc/callback?${new URLSearchParams({ state, code: 'made-up-code' }).toString()}`, {
      token: '',
      headers: { Cookie: cookie, Accept: 'application/json' },
    });

  it('signs a browser in after 10,001 sign-in starts, and its completed callback cannot be replayed', { timeout: 300_000 }, async () => {
    let started = 0;
    const worker = async (): Promise<void> => {
      while (started < 10_001) {
        started += 1;
        const response = await fetch(`${service.url}/api/auth/oidc/login`, { redirect: 'manual' });
        expect(response.status).toBe(302);
        await response.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));

    const page = await newPage();
    let callback: URL | undefined;
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/oidc/callback')) callback = new URL(request.url());
    });
    await page.goto(`${service.url}/api/auth/oidc/login`);
    await page.locator('input[name="login"]').fill('dana');
    await page.locator('input[name="password"]').fill('any-password');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/login\/sso#/);
    const token = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('token') ?? '';
    expect((await service.api('GET', '/api/auth/me', { token })).body).toMatchObject({ username: 'oidc:dana', role: 'user' });

    // The same callback, from the same browser (its cookie), once more: the state was used.
    const own = (await page.context().cookies()).find((cookie) => cookie.name === 'pilothouse-sso');
    expect(own?.value).toBeTruthy();
    const replay = await service.api('GET', `${callback!.pathname}${callback!.search}`, {
      token: '',
      headers: { Cookie: `pilothouse-sso=${own?.value}`, Accept: 'application/json' },
    });
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'bad_state' } });
    await page.context().close();
  });

  it('refuses a tampered sign-in cookie and a tampered state with the error body', async () => {
    const { cookie, state } = await start();
    const [name, value = ''] = cookie.split('=');
    const parts = value.split('.');
    const ciphertext = parts[3] ?? '';
    parts[3] = `${ciphertext[0] === 'A' ? 'B' : 'A'}${ciphertext.slice(1)}`;
    const tampered = await callbackWith(state, `${name}=${parts.join('.')}`);
    expect(tampered.status).toBe(401);
    expect(tampered.body).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED', details: { reason: 'bad_sign_in_cookie' } });
    const garbage = await callbackWith(state, `${name}=not-a-sealed-cookie`);
    expect(garbage.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'bad_sign_in_cookie' } });
    const [random, expiry, mac] = state.split('.');
    const longer = await callbackWith(`${random}.${Number(expiry) + 86_400}.${mac}`, cookie);
    expect(longer.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'bad_state' } });
    // Another browser's cookie (a sign-in of its own) does not finish this one.
    const other = await start();
    expect((await callbackWith(state, other.cookie)).body).toMatchObject({ details: { reason: 'browser_mismatch' } });
  });

  it('refuses a sign-in cookie and state past their ten minutes', async () => {
    const { cookie, state } = await start();
    offset += 11 * 60_000;
    try {
      const expired = await callbackWith(state, cookie);
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED', details: { reason: 'sign_in_expired' } });
    } finally {
      offset -= 11 * 60_000;
    }
  });

  it('keeps the sign-ins of two tabs of one browser', async () => {
    const first = await start();
    const second = await start({ Cookie: first.cookie });
    // The first state is still in the browser's (newer) cookie: it gets as far as the provider, which refuses the made-up code.
    const finished = await callbackWith(first.state, second.cookie);
    expect(finished.status).toBe(401);
    expect(finished.body.details.reason).not.toMatch(/bad_state|browser_mismatch|bad_sign_in_cookie/);
  });

  it('caps device sign-ins per client address: one address cannot use them up for others', { timeout: 60_000 }, async () => {
    const device = (address: string) => service.api('POST', '/api/auth/oidc/device', { body: {}, headers: { 'X-Forwarded-For': address } });
    for (let index = 0; index < 10; index += 1) expect((await device('198.51.100.7')).status).toBe(200);
    const refused = await device('198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    const other = await device('198.51.100.8');
    expect(other.status).toBe(200);
    expect(other.body.userCode).toBeTruthy();
    // IPv6 clients count by their /64: new addresses of one network are still one client.
    for (let index = 1; index <= 10; index += 1) expect((await device(`2001:db8:1:2::${index.toString(16)}`)).status).toBe(200);
    expect((await device('2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await device('2001:db8:1:3::1')).status).toBe(200);
  });
});
