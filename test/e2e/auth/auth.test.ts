import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';

/** A manual clock: tests move time instead of sleeping. */
const clock = { now: Date.now() };

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ clock: () => clock.now });
});
afterAll(async () => {
  await service?.close();
});

function forge(claims: Record<string, unknown>, key: Uint8Array, alg = 'HS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg }).setIssuer('pilothouse').setAudience('pilothouse-api').setIssuedAt().setExpirationTime('1h').sign(key);
}

describe('login', () => {
  it('logs the admin in with {password} and returns a JWT with sub, role, sid, exp', async () => {
    const response = await service.api('POST', '/api/auth/login', { body: { password: testAdminPassword } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ username: 'admin', role: 'admin' });
    expect(new Date(response.body.expires_at).toISOString()).toBe(response.body.expires_at);
    const claims = decodeJwt(response.body.token);
    expect(claims).toMatchObject({ sub: 'admin', role: 'admin' });
    expect(typeof claims.sid).toBe('string');
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('gives the same 401 for a wrong user and a wrong password, audited as denied logins', async () => {
    const wrongPassword = await service.api('POST', '/api/auth/login', { body: { username: 'admin', password: 'nope-nope' } });
    const wrongUser = await service.api('POST', '/api/auth/login', { body: { username: 'nobody-here', password: 'nope-nope' } });
    expect(wrongPassword.status).toBe(401);
    expect(wrongUser.status).toBe(401);
    expect(wrongUser.body).toEqual(wrongPassword.body);
    expect(wrongUser.body.code).toBe('UNAUTHORIZED');
    const audit = await service.api('GET', '/api/audit?action=login&user=nobody-here', { token: service.adminToken });
    expect(audit.body.items[0]).toMatchObject({ action: 'login', decision: 'deny', resource: 'user/nobody-here' });
    expect(JSON.stringify(audit.body)).not.toContain('nope-nope');
  });

  it('rejects malformed login bodies with 400', async () => {
    const response = await service.api('POST', '/api/auth/login', { body: { username: 'admin' } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
  });

  it('refuses disabled and locked accounts after a correct password, naming the reason', async () => {
    const user = await service.createUser('viewer');
    await service.api('PATCH', `/api/admin/users/${user.username}`, { token: service.adminToken, body: { enabled: false } });
    const disabled = await service.api('POST', '/api/auth/login', { body: { username: user.username, password: user.password } });
    expect(disabled.status).toBe(401);
    expect(disabled.body.details.reason).toBe('disabled');
    await service.api('PATCH', `/api/admin/users/${user.username}`, { token: service.adminToken, body: { enabled: true } });
    await service.api('POST', '/api/admin/lock', { token: service.adminToken, body: { username: user.username } });
    const locked = await service.api('POST', '/api/auth/login', { body: { username: user.username, password: user.password } });
    expect(locked.status).toBe(401);
    expect(locked.body.details.reason).toBe('locked');
  });
});

describe('tokens', () => {
  it('requires a token on guarded routes (401) and accepts a valid one', async () => {
    expect((await service.api('GET', '/api/auth/me')).status).toBe(401);
    const me = await service.api('GET', '/api/auth/me', { token: service.adminToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'admin', role: 'admin' });
  });

  it('rejects a non-Bearer Authorization header', async () => {
    const response = await service.api('GET', '/api/auth/me', { headers: { Authorization: 'Basic YWRtaW46eA==' } });
    expect(response.status).toBe(401);
  });

  it('rejects tampered, alg none, wrong key, wrong algorithm tokens with 401', async () => {
    const token = await service.login();
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const elevated = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    const tampered = `${header}.${elevated}.${signature}`;
    const none = new UnsecuredJWT(claims).encode();
    const wrongKey = await forge(claims, new TextEncoder().encode('x'.repeat(64)));
    const realKey = Buffer.from(readFileSync(join(service.dataDir, 'jwt-signing-key'), 'utf8').trim(), 'base64url');
    const wrongAlgorithm = await forge(claims, realKey, 'HS512');
    for (const bad of [tampered, none, wrongKey, wrongAlgorithm, 'not.a.jwt', 'garbage']) {
      const response = await service.api('GET', '/api/auth/me', { token: bad });
      expect(response.status, bad).toBe(401);
      expect(response.body.code).toBe('UNAUTHORIZED');
    }
    // The real key with the right algorithm works: the refusals above are about the token, not the key.
    expect((await service.api('GET', '/api/auth/me', { token: await forge(claims, realKey) })).status).toBe(200);
  });

  it('keeps the generated signing key in the data dir with mode 0600', () => {
    const stats = statSync(join(service.dataDir, 'jwt-signing-key'));
    expect(stats.mode & 0o777).toBe(0o600);
  });

  it('revokes the session at logout (every token of it) and audits the logout', async () => {
    const token = await service.login();
    const logout = await service.api('POST', '/api/auth/logout', { token });
    expect(logout.status).toBe(200);
    const after = await service.api('GET', '/api/auth/me', { token });
    expect(after.status).toBe(401);
    expect(after.body.details.reason).toBe('revoked');
    const audit = await service.api('GET', '/api/audit?action=logout&limit=1', { token: service.adminToken });
    expect(audit.body.items[0]).toMatchObject({ action: 'logout', user: 'admin', decision: 'allow' });
  });

  it('rejects tokens of deleted, locked and disabled users', async () => {
    const deleted = await service.createUser('viewer');
    await service.api('DELETE', `/api/admin/users/${deleted.username}`, { token: service.adminToken });
    expect((await service.api('GET', '/api/auth/me', { token: deleted.token })).status).toBe(401);

    const locked = await service.createUser('user');
    expect((await service.api('GET', '/api/auth/me', { token: locked.token })).status).toBe(200);
    await service.api('POST', '/api/admin/lock', { token: service.adminToken, body: { username: locked.username } });
    const lockedResponse = await service.api('GET', '/api/auth/me', { token: locked.token });
    expect(lockedResponse.status).toBe(401);

    const disabled = await service.createUser('viewer');
    await service.api('PATCH', `/api/admin/users/${disabled.username}`, { token: service.adminToken, body: { enabled: false } });
    expect((await service.api('GET', '/api/auth/me', { token: disabled.token })).status).toBe(401);
  });
});

// Moves the manual clock forward: keep it last (the admin token expires here).
describe('token lifetime', () => {
  it('rejects an expired token, refreshes inside the window, and refuses refresh before it', async () => {
    const token = await service.login();
    const early = await service.api('POST', '/api/auth/refresh', { token });
    expect(early.status).toBe(400);
    expect(early.body.code).toBe('VALIDATION_ERROR');
    expect(early.body.details.refreshOpensAt).toBeTruthy();
    expect(early.headers.get('X-Refreshed-Token')).toBeNull();

    clock.now += 50 * 60_000; // inside the 15 minute window before the 1 h expiry
    const automatic = await service.api('GET', '/api/auth/me', { token });
    expect(automatic.status).toBe(200);
    const refreshedHeader = automatic.headers.get('X-Refreshed-Token');
    expect(refreshedHeader).toBeTruthy();
    expect(Date.parse(automatic.headers.get('X-Token-Expires-At')!)).toBeGreaterThan(clock.now + 59 * 60_000);
    const refreshed = await service.api('POST', '/api/auth/refresh', { token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.token).toBeTruthy();

    clock.now += 11 * 60_000; // the original token is now expired
    const expired = await service.api('GET', '/api/auth/me', { token });
    expect(expired.status).toBe(401);
    expect((await service.api('POST', '/api/auth/refresh', { token })).status).toBe(401);
    expect((await service.api('GET', '/api/auth/me', { token: refreshed.body.token })).status).toBe(200);
  });
});
