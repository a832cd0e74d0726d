import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.js';

/** A manual clock: tests move time instead of sleeping. */
const clock = { now: Date.now() };
const hour = 3_600_000;
const loginLimit = 5;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    clock: () => clock.now,
    config: {
      authorization: { jwt: { token_duration: '1h', refresh_window: '15m', max_session: '2h' } },
      limits: { login_attempts_per_minute: loginLimit },
    },
  });
});
afterAll(async () => {
  await service?.close();
});

describe('login throttle', () => {
  it('lets at most the configured number of 20 parallel wrong guesses through, the rest get 429', async () => {
    const { username } = await service.createUser('viewer');
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => service.api('POST', '/api/auth/login', { body: { username, password: `wrong-guess-${index}` } })),
    );
    const statuses = guesses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(loginLimit);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20 - loginLimit);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  });
});

describe('request ids', () => {
  it("keeps a client's short, safe X-Request-Id in the response and the audit", async () => {
    const response = await service.api('POST', '/api/auth/login', {
      body: { username: 'rid-safe', password: 'x' },
      headers: { 'X-Request-Id': 'trace-42.a:b_c' },
    });
    expect(response.headers.get('X-Request-Id')).toBe('trace-42.a:b_c');
    const audit = await service.api('GET', '/api/audit?action=login&user=rid-safe', { token: service.adminToken });
    expect(audit.body.items[0].requestId).toBe('trace-42.a:b_c');
  });

  it('replaces a long or unsafe X-Request-Id with a new id, which the response and the audit row carry', async () => {
    const unsafe = ['<script>alert(1)</script>', 'a'.repeat(65), 'id with spaces', 'x";drop table audit;--'];
    for (const [index, id] of unsafe.entries()) {
      const user = `rid-unsafe-${index}`;
      const response = await service.api('POST', '/api/auth/login', { body: { username: user, password: 'x' }, headers: { 'X-Request-Id': id } });
      const echoed = response.headers.get('X-Request-Id');
      expect(echoed, id).toMatch(uuid);
      const audit = await service.api('GET', `/api/audit?action=login&user=${user}`, { token: service.adminToken });
      expect(audit.body.items[0].requestId, id).toBe(echoed);
      expect(audit.text).not.toContain(id);
    }
  });
});

describe('auth.mode none in the config file', () => {
  it('says so in the health details, like --no-auth', async () => {
    const open = await startTestService({ config: { auth: { mode: 'none' } }, adminPassword: null });
    try {
      const health = await open.api('GET', '/api/health');
      expect(health.status).toBe(200);
      expect(health.body.details.auth).toMatchObject({ status: 'disabled' });
      expect(health.body.details.auth.warning).toMatch(/authentication is OFF/);
      expect((await service.api('GET', '/api/health')).body.details?.auth).toBeUndefined();
    } finally {
      await open.close();
    }
  });
});

// Moves the manual clock forward: keep it last.
describe('absolute session lifetime (authorization.jwt.max_session)', () => {
  it('caps refreshed tokens at login + max_session and refuses refresh after it', async () => {
    const loggedInAt = clock.now;
    const sessionEnd = Math.floor((loggedInAt + 2 * hour) / 1000);
    let token = await service.login();

    clock.now = loggedInAt + 50 * 60_000; // inside the refresh window of the first token
    const first = await service.api('POST', '/api/auth/refresh', { token });
    expect(first.status, first.text).toBe(200);
    expect(decodeJwt(first.body.token).exp).toBeLessThanOrEqual(sessionEnd);
    token = first.body.token;

    clock.now = loggedInAt + 100 * 60_000; // the second token's window; a full hour would pass the session's end
    const second = await service.api('POST', '/api/auth/refresh', { token });
    expect(second.status, second.text).toBe(200);
    expect(decodeJwt(second.body.token).exp).toBe(sessionEnd);
    expect(Date.parse(second.body.expires_at)).toBe(sessionEnd * 1000);
    token = second.body.token;

    clock.now = loggedInAt + 2 * hour + 60_000; // past the session's end
    const late = await service.api('POST', '/api/auth/refresh', { token });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('UNAUTHORIZED');
    expect((await service.api('GET', '/api/auth/me', { token })).status).toBe(401);
  });
});
