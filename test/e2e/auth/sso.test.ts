import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { SignJWT, importJWK, type JWK } from 'jose';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLogin, type DeviceLoginPrompt } from '../../../src/cli/sso-device-login.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml } from '../../helpers/kubectl.js';
import { startOidcProvider, type OidcProviderHandle } from '../../helpers/oidc-provider.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { chromiumPath, launchArgs, missingForWebTests } from '../../helpers/browser.js';
import { rootDirectory } from '../../helpers/paths.js';

// SSO against a real OpenID Provider (oidc-provider over HTTPS, trusted through oidc.ca_file), driven
// in real Chromium; the cluster side of `impersonation.mode: user` against the real API server's RBAC.
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`SSO test cannot run: ${missing.join('; ')}`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(missing.length > 0)('single sign-on (OpenID Connect)', () => {
  const namespace = useNamespace('sso');
  const other = useNamespace('sso-other');
  let op: OidcProviderHandle;
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    op = await startOidcProvider({
      clients: [
        {
          client_id: 'pilothouse',
          client_secret: 'test-client-secret',
          redirect_uris: [`${base}/api/auth/oidc/callback`],
          post_logout_redirect_uris: [`${base}/`],
        },
      ],
      users: [
        { sub: 'sub-alice', preferred_username: 'alice', email: 'alice@example.test', groups: ['devs', 'platform-admins'] },
        { sub: 'sub-bob', preferred_username: 'bob', email: 'bob@example.test', groups: ['devs'] },
        { sub: 'sub-carol', preferred_username: 'carol', groups: ['guests'] },
        { sub: 'sub-mallory', preferred_username: 'mallory', groups: ['devs', 'system:masters'] },
        { sub: 'sub-trent', preferred_username: 'trent', groups: ['devs'] },
      ],
    });
    process.env.SSO_TEST_CLIENT_SECRET = 'test-client-secret';
    service = await startTestService({
      web: true,
      port,
      authMode: 'oidc',
      config: {
        oidc: {
          issuer: op.issuer,
          client_id: 'pilothouse',
          client_secret: '${SSO_TEST_CLIENT_SECRET}',
          redirect_url: `${base}/api/auth/oidc/callback`,
          ca_file: op.caFile,
          role_mappings: { groups: { devs: 'user', 'platform-admins': 'admin' } },
          api_audiences: ['ci-jobs'],
          button_label: 'Sign in with Test IdP',
        },
        authorization: {
          impersonation: { enabled: true, mode: 'user', mappings: { viewer: 'system:anonymous', user: 'system:anonymous', admin: 'system:anonymous' } },
        },
      } as never,
    });
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
    // The cluster's own RBAC decides for SSO users: the group oidc:devs may read pods in `namespace` only.
    await applyYaml(
      clusterKubeconfig(),
      [
        'apiVersion: rbac.authorization.k8s.io/v1',
        'kind: RoleBinding',
        'metadata: {name: oidc-devs-view}',
        'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}',
        'subjects:',
        '- {apiGroup: rbac.authorization.k8s.io, kind: Group, name: "oidc:devs"}',
      ].join('\n'),
      namespace.name,
    );
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

  /** Signs in at the provider's login page (its dev interactions accept any password). */
  async function providerLogin(page: Page, login: string): Promise<void> {
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any-password');
    await page.locator('button[type="submit"]').click();
  }

  /** The whole browser flow: Pilothouse's login page → the provider → back, signed in. */
  async function browserSignIn(login: string): Promise<{ page: Page; session: { token: string; username: string; role: string } }> {
    const page = await newPage();
    await page.goto(`${service.url}/`);
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await providerLogin(page, login);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nat ${page.url()}: ${(await page.textContent('body'))?.slice(0, 500)}`);
      });
    // The browser's credential is the HttpOnly session cookie the callback set (ADR 0050).
    const cookie = (await page.context().cookies()).find((entry) => entry.name.endsWith('pilothouse-session'));
    if (!cookie) throw new Error('the SSO sign-in set no session cookie');
    const me = await service.api('GET', '/api/auth/me', { token: cookie.value });
    return { page, session: { token: cookie.value, username: me.body.username, role: me.body.role } };
  }

  async function mint(claims: Record<string, unknown>, options: { key?: JWK & { kid: string }; expiresIn?: string } = {}): Promise<string> {
    const key = options.key ?? op.signingKey();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuer(op.issuer)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '10m')
      .sign(await importJWK(key, 'RS256'));
  }

  it('refuses to start with one line naming the key when SSO is misconfigured', async () => {
    await expect(startTestService({ authMode: 'oidc', config: { oidc: { client_id: 'x', redirect_url: 'http://127.0.0.1/cb' } } as never })).rejects.toThrow(
      'oidc.issuer is required when auth.mode is oidc',
    );
    const port = await freePort();
    await expect(
      startTestService({
        authMode: 'oidc',
        config: { oidc: { issuer: `https://127.0.0.1:${port}`, client_id: 'x', redirect_url: 'http://127.0.0.1/cb' } } as never,
      }),
    ).rejects.toThrow(/^oidc\.issuer: cannot discover/);
  });

  it('offers SSO on the login page', async () => {
    const info = await service.api('GET', '/api/auth/sso', { token: '' });
    expect(info.status).toBe(200);
    expect(info.body).toEqual({ mode: 'oidc', sso: { enabled: true, buttonLabel: 'Sign in with Test IdP', loginUrl: '/api/auth/oidc/login' } });
    const start = await fetch(`${service.url}/api/auth/oidc/login`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const location = new URL(start.headers.get('location')!);
    expect(location.origin).toBe(op.issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    for (const parameter of ['state', 'nonce', 'code_challenge']) expect(location.searchParams.get(parameter)).toBeTruthy();
  });

  it('signs a user in through the browser with the mapped role, lists and logs out at the provider', { timeout: 120_000 }, async () => {
    const { page, session } = await browserSignIn('alice');
    expect(session).toMatchObject({ username: 'oidc:alice', role: 'admin' });
    expect(page.url()).not.toContain('token=');
    const me = await service.api('GET', '/api/auth/me', { token: session.token });
    expect(me.body).toMatchObject({ username: 'oidc:alice', role: 'admin' });
    const users = await service.api('GET', '/api/admin/users', { token: service.adminToken });
    expect(JSON.stringify(users.body)).toContain('oidc:alice');
    const logout = await service.api('POST', '/api/auth/logout', { token: session.token });
    expect(logout.body.endSessionUrl).toMatch(new RegExp(`^${op.issuer}/`));
    expect((await service.api('GET', '/api/auth/me', { token: session.token })).status).toBe(401);
    await page.context().close();
  });

  it('refuses a user no mapping names with a page that names the claim, and audits it', { timeout: 120_000 }, async () => {
    const page = await newPage();
    await page.goto(`${service.url}/api/auth/oidc/login`);
    await providerLogin(page, 'carol');
    await page.getByRole('heading', { name: 'Sign-in refused' }).waitFor();
    expect(await page.textContent('body')).toContain('groups');
    const audit = await service.api('GET', '/api/audit?action=login&user=oidc:carol', { token: service.adminToken });
    const rows = JSON.stringify(audit.body);
    expect(rows).toContain('no_role_mapping');
    await page.context().close();
  });

  it('refuses a bad state and a replayed code with 401 and a reason', { timeout: 120_000 }, async () => {
    const bad = await service.api('GET', '/api/auth/oidc/callback?state=forged&code=whatever', { token: '' });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'bad_state' } });

    // Capture a real callback, let it finish, then replay its code under a fresh state.
    const page = await newPage();
    let callback: URL | undefined;
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/oidc/callback')) callback = new URL(request.url());
    });
    await page.goto(`${service.url}/`);
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await providerLogin(page, 'bob');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    const start = await fetch(`${service.url}/api/auth/oidc/login`, { redirect: 'manual' });
    const fresh = new URL(start.headers.get('location')!);
    const cookie = start.headers.get('set-cookie')!.split(';')[0]!;
    const replayed = new URLSearchParams({ code: callback!.searchParams.get('code')!, state: fresh.searchParams.get('state')!, iss: op.issuer });
    const replay = await service.api('GET', `/api/auth/oidc/callback?${replayed.toString()}`, { token: '', headers: { Cookie: cookie } });
    expect(replay.status).toBe(401);
    expect(replay.body.details, JSON.stringify(replay.body)).toMatchObject({ reason: 'invalid_grant' });
    // The same callback URL twice: its state is used up.
    expect((await service.api('GET', `${callback!.pathname}${callback!.search}`, { token: '' })).body.details.reason).toBe('bad_state');
    const audit = await service.api('GET', '/api/audit?action=login', { token: service.adminToken });
    expect(JSON.stringify(audit.body)).toContain('invalid_grant');
    await page.context().close();
  });

  /**
   * An attacker's own sign-in in their own browser, stopped before its callback reaches Pilothouse: the callback
   * URL (their code and state) that a login-CSRF attack sends to a victim's browser. The provider answers the
   * login form with redirects that end at the callback; they are followed here and the last one is not.
   */
  async function attackerCallback(): Promise<{ url: string; cookie: string }> {
    const page = await newPage();
    let captured: string | undefined;
    await page.route('**/interaction/**', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      let response = await route.fetch({ maxRedirects: 0 });
      let location = response.headers()['location'];
      while (location && !location.includes('/api/auth/oidc/callback')) {
        response = await page.request.get(new URL(location, response.url()).href, { maxRedirects: 0 });
        location = response.headers()['location'];
      }
      captured = location;
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'stopped before the callback' });
    });
    await page.goto(`${service.url}/api/auth/oidc/login`);
    await providerLogin(page, 'trent');
    await waitFor(() => captured !== undefined);
    const own = (await page.context().cookies()).find((cookie) => cookie.name === 'pilothouse-sso');
    await page.context().close();
    return { url: captured!, cookie: `pilothouse-sso=${own?.value}` };
  }

  it('refuses a callback without the sign-in cookie of the browser that started it (login CSRF), and audits it', { timeout: 120_000 }, async () => {
    const start = await fetch(`${service.url}/api/auth/oidc/login`, { redirect: 'manual' });
    const cookie = start.headers.get('set-cookie')!;
    // The sign-in sealed (JWE compact: five base64url parts), nothing kept on the server.
    expect(cookie).toMatch(/^pilothouse-sso=[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){4}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');

    const bare = new URL((await attackerCallback()).url);
    const noCookie = await service.api('GET', `${bare.pathname}${bare.search}`, { token: '' });
    expect(noCookie.status).toBe(401);
    expect(noCookie.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'browser_mismatch' } });

    // The victim's browser holds its own sign-in cookie (it started a sign-in of its own) and is sent the attacker's callback.
    const forged = await attackerCallback();
    const victim = await newPage();
    await victim.goto(`${service.url}/api/auth/oidc/login`);
    await victim.locator('input[name="login"]').waitFor();
    await victim.goto(forged.url);
    await victim.getByRole('heading', { name: 'Sign-in refused' }).waitFor();
    expect(await victim.textContent('body')).toContain('browser_mismatch');
    expect(victim.url()).not.toContain('/login/sso');
    expect((await victim.context().cookies()).filter((entry) => entry.name.endsWith('pilothouse-session'))).toEqual([]);
    const audit = await service.api('GET', '/api/audit?action=login&user=oidc', { token: service.adminToken });
    expect((audit.body.items as { details: { reason?: string } }[]).filter((row) => row.details.reason === 'browser_mismatch').length).toBeGreaterThanOrEqual(
      2,
    );
    await victim.context().close();
    // The same kind of callback with the cookie of the browser that started it signs in: only the binding refused the others.
    const own = await attackerCallback();
    const signedIn = await fetch(own.url, { headers: { Cookie: own.cookie }, redirect: 'manual' });
    expect(signedIn.status, await signedIn.text()).toBe(302);
    expect(signedIn.headers.get('location')).toMatch(/^\/login\/sso#token=/);
  });

  it('keeps user and group names apart: a user named like the admin group does not become admin', async () => {
    const token = await mint({ sub: 'sub-impostor', preferred_username: 'platform-admins', groups: ['devs'], aud: 'pilothouse' });
    const me = await service.api('GET', '/api/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'oidc:platform-admins', role: 'user' });
    const users = await service.api('GET', '/api/admin/users', { token });
    expect(users.status).toBe(403);
  });

  it('refuses system: groups and names from the provider (browser sign-in and ID tokens), and audits it', { timeout: 120_000 }, async () => {
    const page = await newPage();
    await page.goto(`${service.url}/api/auth/oidc/login`);
    await providerLogin(page, 'mallory');
    await page.getByRole('heading', { name: 'Sign-in refused' }).waitFor();
    const body = await page.textContent('body');
    expect(body).toContain('reserved_name');
    expect(body).toContain('system:masters');
    await page.context().close();
    for (const claims of [
      { sub: 'sub-mallory', preferred_username: 'mallory', groups: ['system:masters'] },
      { sub: 'sub-node', preferred_username: 'system:node:worker-1', groups: ['devs'] },
    ]) {
      const refused = await service.api('GET', '/api/auth/me', { token: await mint({ ...claims, aud: 'pilothouse' }) });
      expect(refused.status).toBe(401);
      expect(refused.body.details, JSON.stringify(refused.body)).toMatchObject({ reason: 'reserved_name' });
    }
    const audit = await service.api('GET', '/api/audit?action=login&user=oidc:mallory', { token: service.adminToken });
    expect(JSON.stringify(audit.body)).toContain('reserved_name');
    const users = await service.api('GET', '/api/admin/users', { token: service.adminToken });
    expect(JSON.stringify(users.body)).not.toContain('oidc:mallory');
  });

  it('signs in with the device flow (terminal UI, scripts)', { timeout: 120_000 }, async () => {
    let prompt: DeviceLoginPrompt | undefined;
    const signedIn = deviceLogin(service.url, (shown) => (prompt = shown));
    await waitFor(() => prompt !== undefined);
    expect(prompt!.userCode).toBeTruthy();
    const page = await newPage();
    await page.goto(prompt!.verificationUriComplete ?? prompt!.verificationUri);
    await page.locator('button[type="submit"]').first().click();
    await providerLogin(page, 'bob');
    await page
      .getByText(/Sign-in Success|success/i)
      .first()
      .waitFor();
    const session = await signedIn;
    expect(session).toMatchObject({ username: 'oidc:bob', role: 'user' });
    expect((await service.api('GET', '/api/auth/me', { token: session.token })).body.role).toBe('user');
    await page.context().close();
  });

  it('accepts ID tokens of the issuer as bearer tokens and refuses bad ones with the reason', async () => {
    const claims = { sub: 'sub-bob', preferred_username: 'bob', groups: ['devs'] };
    const good = await mint({ ...claims, aud: 'pilothouse' });
    expect((await service.api('GET', '/api/auth/me', { token: good })).body).toMatchObject({ username: 'oidc:bob', role: 'user' });
    expect((await service.api('GET', '/api/auth/me', { token: await mint({ ...claims, aud: 'ci-jobs' }) })).status).toBe(200);

    const wrongAudience = await service.api('GET', '/api/auth/me', { token: await mint({ ...claims, aud: 'someone-else' }) });
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.body.details.reason).toBe('wrong_aud');
    const expired = await service.api('GET', '/api/auth/me', { token: await mint({ ...claims, aud: 'pilothouse' }, { expiresIn: '-1m' }) });
    expect(expired.body.details.reason).toBe('expired');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const stranger = { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: op.signingKey().kid };
    const forged = await service.api('GET', '/api/auth/me', { token: await mint({ ...claims, aud: 'pilothouse' }, { key: stranger }) });
    expect(forged.status).toBe(401);
    expect(forged.body.details.reason).toBe('invalid_signature');
    const audit = await service.api('GET', '/api/audit?action=login', { token: service.adminToken });
    for (const reason of ['wrong_aud', 'expired', 'invalid_signature']) expect(JSON.stringify(audit.body)).toContain(reason);
  });

  it('follows key rotation at the provider', { timeout: 120_000 }, async () => {
    await op.rotateKeys();
    const token = await mint({ sub: 'sub-bob', preferred_username: 'bob', groups: ['devs'], aud: 'pilothouse' });
    // The old keys may be cached for a few seconds; the new key id makes the service fetch the JWKS again.
    await waitFor(async () => (await service.api('GET', '/api/auth/me', { token })).status === 200, 30_000, 1_000);
    const { session, page } = await browserSignIn('bob');
    expect(session.username).toBe('oidc:bob');
    await page.context().close();
  });

  it('gives the lower role at the next sign-in once the user left the admin group', { timeout: 120_000 }, async () => {
    op.users.set('alice', { ...op.users.get('alice')!, groups: ['devs'] });
    const { session, page } = await browserSignIn('alice');
    expect(session.role).toBe('user');
    const users = await service.api('GET', '/api/admin/users', { token: service.adminToken });
    const alice = (users.body.items as { username: string; role: string }[]).find((user: { username: string }) => user.username === 'oidc:alice');
    expect(alice?.role).toBe('user');
    await page.context().close();
  });

  it('locks an SSO user: sessions and ID tokens stop working, the lock persists', { timeout: 120_000 }, async () => {
    const { session, page } = await browserSignIn('bob');
    await page.context().close();
    const locked = await service.api('POST', '/api/admin/lock', { token: service.adminToken, body: { username: 'oidc:bob' } });
    expect(locked.status).toBe(200);
    expect((await service.api('GET', '/api/auth/me', { token: session.token })).status).toBe(401);
    const bearer = await service.api('GET', '/api/auth/me', {
      token: await mint({ sub: 'sub-bob', preferred_username: 'bob', groups: ['devs'], aud: 'pilothouse' }),
    });
    expect(bearer.status).toBe(401);
    expect(bearer.body.details.reason).toBe('locked');
    // The next sign-in is refused too.
    let prompt: DeviceLoginPrompt | undefined;
    const refused = deviceLogin(service.url, (shown) => (prompt = shown)).catch((error: Error) => error);
    await waitFor(() => prompt !== undefined);
    const device = await newPage();
    await device.goto(prompt!.verificationUriComplete!);
    await device.locator('button[type="submit"]').first().click();
    await providerLogin(device, 'bob');
    expect(String(await refused)).toContain('locked');
    await device.context().close();
    await service.api('POST', '/api/admin/unlock', { token: service.adminToken, body: { username: 'oidc:bob' } });
  });

  it('acts toward the cluster as the SSO user and their groups (impersonation.mode: user)', { timeout: 60_000 }, async () => {
    const token = await mint({ sub: 'sub-dana', preferred_username: 'dana', groups: ['devs'], aud: 'pilothouse' });
    await applyYaml(clusterKubeconfig(), `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: seen-${randomUUID().slice(0, 6)}}\n`, namespace.name);
    const allowed = await service.api('GET', `/api/k8s/configmaps?namespace=${namespace.name}`, { token });
    expect(allowed.status).toBe(200);
    expect(allowed.body.items.length).toBeGreaterThan(0);
    // Same Pilothouse role, another namespace: the API server's RBAC (no binding for oidc:devs there) refuses.
    const refused = await service.api('GET', `/api/k8s/configmaps?namespace=${other.name}`, { token });
    expect(refused.status).toBe(403);
  });
});

describe('single sign-on start-up refusals', () => {
  /** Starts Pilothouse from source (as `make` does) with the config text; it must stop before serving. */
  function start(configText: string): { status: number | null; stderr: string } {
    const directory = mkdtempSync(join(tmpdir(), 'ph-sso-config-'));
    writeFileSync(join(directory, 'config.yaml'), configText);
    const loader = ['--import', './test/fixtures/mcp/register-ts.mjs', '--experimental-transform-types', '--no-warnings'];
    const args = [
      ...loader,
      'src/main.ts',
      '-web',
      '--auth-mode',
      'oidc',
      '--port',
      '0',
      '--config',
      join(directory, 'config.yaml'),
      '--data-dir',
      join(directory, 'data'),
    ];
    const result = spawnSync(process.execPath, args, { cwd: rootDirectory, encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOME: directory } });
    return { status: result.status, stderr: result.stderr };
  }

  const userMode = 'authorization:\n  impersonation: {enabled: true, mode: user, mappings: {viewer: system:anonymous}}\n';

  it('refuses prefixes that would send provider names to the cluster bare (exit 2, one line naming the key)', { timeout: 120_000 }, () => {
    for (const [text, key] of [
      [`${userMode}oidc:\n  username_prefix: ""\n`, 'oidc.username_prefix'],
      [`${userMode}oidc:\n  groups_prefix: ""\n`, 'oidc.groups_prefix'],
      ['oidc:\n  groups_prefix: "system:"\n', 'oidc.groups_prefix'],
    ] as const) {
      const result = start(text);
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(`: ${key}: must not`);
    }
  });

  it('refuses the old flat role_mappings with how to migrate (exit 2)', { timeout: 60_000 }, () => {
    const result = start('oidc:\n  role_mappings: {devs: user, platform-admins: admin}\n');
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/oidc\.role_mappings: the flat form .* move each entry under users: or groups:/);
  });
});
