import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type ApiResponse, type TestService } from '../../helpers/service.js';

const clock = { now: Date.parse('2024-03-01T09:00:00Z') };
const limits = { requests_per_minute: 6, chat_requests_per_minute: 2, login_attempts_per_minute: 3 };
let service: TestService;
let proxied: TestService;
let viewer: { username: string; password: string; token: string };

/** Every test starts in fresh one-minute windows: time moves, nobody sleeps. */
function nextWindow(): void {
  clock.now += 61_000;
}

async function repeat(count: number, call: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const responses: ApiResponse[] = [];
  for (let index = 0; index < count; index += 1) responses.push(await call());
  return responses;
}

function expectRateLimited(response: ApiResponse, limit: number): void {
  expect(response.status).toBe(429);
  expect(response.body).toMatchObject({ code: 'RATE_LIMITED', error: expect.any(String), details: { retryAfter: expect.any(Number) } });
  expect(response.headers.get('Retry-After')).toBe(String(response.body.details.retryAfter));
  expect(response.headers.get('X-RateLimit-Limit')).toBe(String(limit));
  expect(response.headers.get('X-RateLimit-Remaining')).toBe('0');
}

beforeAll(async () => {
  service = await startTestService({ clock: () => clock.now, config: { limits } });
  viewer = await service.createUser('viewer');
  proxied = await startTestService({ clock: () => clock.now, config: { limits, server: { trusted_proxies: ['127.0.0.1', '::1'] } } });
});
afterAll(async () => {
  await service?.close();
  await proxied?.close();
});

describe('rate limits', () => {
  it('puts X-RateLimit-Limit, -Remaining and -Reset (Unix seconds) on API responses', async () => {
    nextWindow();
    const response = await service.api('GET', '/api/health');
    expect(response.headers.get('X-RateLimit-Limit')).toBe('6');
    expect(response.headers.get('X-RateLimit-Remaining')).toBe('5');
    expect(response.headers.get('X-RateLimit-Reset')).toBe(String(Math.ceil((clock.now + 60_000) / 1000)));
    const unauthenticated = await service.api('GET', '/api/auth/me');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('X-RateLimit-Remaining')).toBe('4');
    const unknown = await service.api('GET', '/api/no-such-route');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('X-RateLimit-Remaining')).toBe('3');
  });

  it('limits unauthenticated requests per client address with 429 and Retry-After', async () => {
    nextWindow();
    const responses = await repeat(7, () => service.api('GET', '/api/health'));
    expect(responses.slice(0, 6).every((response) => response.status !== 429)).toBe(true);
    expectRateLimited(responses[6]!, 6);
    expect(responses[6]!.body.details.retryAfter).toBe(60);
    // An authenticated user has a window of their own.
    expect((await service.api('GET', '/api/auth/me', { token: viewer.token })).status).toBe(200);
  });

  it('counts requests with invalid tokens per address', async () => {
    nextWindow();
    const responses = await repeat(7, () => service.api('GET', '/api/auth/me', { token: 'garbage' }));
    expect(responses.slice(0, 6).map((response) => response.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expectRateLimited(responses[6]!, 6);
  });

  it('limits each authenticated user separately, and the window resets', async () => {
    nextWindow();
    const responses = await repeat(7, () => service.api('GET', '/api/auth/me', { token: service.adminToken }));
    expect(responses[5]!.status).toBe(200);
    expectRateLimited(responses[6]!, 6);
    expect((await service.api('GET', '/api/auth/me', { token: viewer.token })).status).toBe(200);
    clock.now += 30_000;
    expect((await service.api('GET', '/api/auth/me', { token: service.adminToken })).body.details.retryAfter).toBe(30);
    clock.now += 31_000;
    expect((await service.api('GET', '/api/auth/me', { token: service.adminToken })).status).toBe(200);
  });

  it('limits POST /api/chat/agentic to its own lower rate per user', async () => {
    nextWindow();
    const responses = await repeat(3, () => service.api('POST', '/api/chat/agentic', { token: viewer.token, body: {} }));
    expect(responses[0]!.headers.get('X-RateLimit-Limit')).toBe('2');
    expect(responses.slice(0, 2).map((response) => response.status)).toEqual([400, 400]);
    expectRateLimited(responses[2]!, 2);
    expect((await service.api('GET', '/api/auth/me', { token: viewer.token })).status).toBe(200);
  });

  it('limits failed logins per address and username, even for the right password then', async () => {
    nextWindow();
    const failures = await repeat(3, () => service.api('POST', '/api/auth/login', { body: { username: viewer.username, password: 'wrong-password' } }));
    expect(failures.map((response) => response.status)).toEqual([401, 401, 401]);
    const blocked = await service.api('POST', '/api/auth/login', { body: { username: viewer.username, password: viewer.password } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Another username from the same address is not affected.
    expect((await service.api('POST', '/api/auth/login', { body: { password: 'admin-password-for-tests' } })).status).toBe(200);
    nextWindow();
    expect((await service.api('POST', '/api/auth/login', { body: { username: viewer.username, password: viewer.password } })).status).toBe(200);
    const audit = await service.api('GET', `/api/audit?user=${viewer.username}&action=login`, { token: service.adminToken });
    expect(audit.body.items.filter((entry: { details: { reason?: string } }) => entry.details.reason === 'throttled')).toHaveLength(1);
  });
});

describe('client addresses', () => {
  it('ignores X-Forwarded-For from untrusted peers', async () => {
    nextWindow();
    const responses = await repeat(7, async () => {
      const forwarded = `198.51.100.${Math.floor(Math.random() * 200)}`;
      return service.api('GET', '/api/health', { headers: { 'X-Forwarded-For': forwarded } });
    });
    expect(responses[6]!.status).toBe(429);
    nextWindow();
    await service.api('POST', '/api/auth/login', { body: { username: 'spoofer', password: 'x' }, headers: { 'X-Forwarded-For': '203.0.113.50' } });
    const audit = await service.api('GET', '/api/audit?user=spoofer', { token: service.adminToken });
    expect(audit.body.items[0].source).toBe('127.0.0.1');
  });

  it('uses X-Forwarded-For from trusted proxies, per client', async () => {
    nextWindow();
    const first = await repeat(7, () => proxied.api('GET', '/api/health', { headers: { 'X-Forwarded-For': '203.0.113.1' } }));
    expect(first[5]!.status).toBe(200);
    expect(first[6]!.status).toBe(429);
    expect((await proxied.api('GET', '/api/health', { headers: { 'X-Forwarded-For': '203.0.113.2' } })).status).toBe(200);
    await proxied.api('POST', '/api/auth/login', { body: { username: 'far-away', password: 'x' }, headers: { 'X-Forwarded-For': '203.0.113.9, 127.0.0.1' } });
    const audit = await proxied.api('GET', '/api/audit?user=far-away', { token: proxied.adminToken });
    expect(audit.body.items[0].source).toBe('203.0.113.9');
  });
});
