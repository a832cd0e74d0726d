import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService;
let withCors: TestService;

beforeAll(async () => {
  service = await startTestService();
  withCors = await startTestService({ config: { server: { cors_origins: ['https://console.example.com'] } } });
});
afterAll(async () => {
  await service?.close();
  await withCors?.close();
});

describe('HTTP hardening', () => {
  it('refuses bodies over 1 MiB with 413 in the error body', async () => {
    const body = JSON.stringify({ password: 'x'.repeat(1024 * 1024 + 10) });
    const response = await service.api('POST', '/api/auth/login', { body });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.any(String), details: {} });
    expect(response.headers.get('X-RateLimit-Limit')).toBeTruthy();
  });

  it('sends the security headers (CSP with frame-ancestors none, nosniff)', async () => {
    for (const response of [await service.api('GET', '/api/health'), await service.api('GET', '/api/auth/me')]) {
      expect(response.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(response.headers.get('X-Frame-Options')).toBe('DENY');
    }
  });

  it('sends no CORS headers unless origins are configured', async () => {
    const response = await service.api('GET', '/api/health', { headers: { Origin: 'https://console.example.com' } });
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const preflight = await service.api('OPTIONS', '/api/auth/login', {
      headers: { Origin: 'https://console.example.com', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it('allows configured origins and exposes the refresh and rate-limit headers', async () => {
    const response = await withCors.api('GET', '/api/health', { headers: { Origin: 'https://console.example.com' } });
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('https://console.example.com');
    expect(response.headers.get('Access-Control-Expose-Headers')).toContain('X-Refreshed-Token');
    expect(response.headers.get('Access-Control-Expose-Headers')).toContain('X-RateLimit-Reset');
    const preflight = await withCors.api('OPTIONS', '/api/auth/login', {
      headers: { Origin: 'https://console.example.com', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toContain('Authorization');
    const stranger = await withCors.api('GET', '/api/health', { headers: { Origin: 'https://evil.example.com' } });
    expect(stranger.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('start-up modes', () => {
  it('--no-auth: every request acts as admin "anonymous" and is still audited', async () => {
    const open = await startTestService({ noAuth: true });
    try {
      expect(open.adminToken).toBe('');
      const me = await open.api('GET', '/api/auth/me');
      expect(me.body).toMatchObject({ username: 'anonymous', role: 'admin' });
      await open.api('POST', '/api/admin/lock', { body: { username: 'nobody' } });
      await open.api('POST', '/api/admin/users', { body: { username: 'erin', password: 'erin-password', role: 'viewer' } });
      await open.api('POST', '/api/admin/lock', { body: { username: 'erin' } });
      const audit = await open.api('GET', '/api/audit?action=lock');
      expect(audit.body.items[0]).toMatchObject({ user: 'anonymous', resource: 'user/erin' });
    } finally {
      await open.close();
    }
  });

  it('generates a strong admin password on first start, shows it once, stores only its hash', async () => {
    const shown: string[] = [];
    const fresh = await startTestService({ adminPassword: null, announce: (text) => shown.push(text) });
    try {
      expect(shown).toHaveLength(1);
      const password = /generated password: (\S+)/.exec(shown[0]!)?.[1] ?? '';
      expect(password.length).toBeGreaterThanOrEqual(20);
      const token = await fresh.login('admin', password);
      expect((await fresh.api('GET', '/api/auth/me', { token })).body.role).toBe('admin');
      const row = fresh.deps.database.prepare("SELECT password_hash FROM users WHERE username = 'admin'").get() as { password_hash: string };
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(password);
    } finally {
      await fresh.close();
    }
  });

  it('refuses to start SSO without its provider settings, naming the key', async () => {
    await expect(startTestService({ config: { auth: { mode: 'oidc' } } })).rejects.toThrow('oidc.issuer is required when auth.mode is oidc');
  });
});
