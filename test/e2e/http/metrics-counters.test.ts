import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';

// /metrics moves with what a platform team alerts on, after real requests: logins and refused
// logins (labelled with the effective auth mode), rate-limited requests, policy denials on a route.
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ config: { limits: { requests_per_minute: 100_000, chat_requests_per_minute: 100, login_attempts_per_minute: 4 } } });
});
afterAll(async () => {
  await service?.close();
});

async function scrape(): Promise<string> {
  const response = await service.api<string>('GET', '/metrics', { token: service.adminToken });
  expect(response.status).toBe(200);
  return response.text;
}

/** The value of one sample (0 when absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('/metrics counters', () => {
  it('counts logins, refused logins, rate-limited requests and route denials', async () => {
    const before = await scrape();
    const login = (password: string) => service.api('POST', '/api/auth/login', { body: { username: 'admin', password } });
    expect((await login(testAdminPassword)).status).toBe(200);
    expect((await login('wrong-password')).status).toBe(401);
    // The login window (4 a minute, two used by the test service's start and the calls above) runs out.
    let limited = 0;
    for (let attempt = 0; attempt < 6; attempt += 1) if ((await login('wrong-password')).status === 429) limited += 1;
    expect(limited).toBeGreaterThan(0);
    const viewer = await service.createUser('viewer');
    expect((await service.api('GET', '/api/admin/users', { token: viewer.token })).status).toBe(403);

    const after = await scrape();
    const moved = (series: string): number => sample(after, series) - sample(before, series);
    expect(moved('pilothouse_logins_total{mode="local"}')).toBeGreaterThanOrEqual(1);
    expect(moved('pilothouse_login_failures_total{mode="local"}')).toBeGreaterThanOrEqual(1);
    expect(moved('pilothouse_rate_limited_requests_total{route="/api/auth/login"}')).toBe(limited);
    expect(moved('pilothouse_policy_denials_total{path="routes"}')).toBeGreaterThanOrEqual(1);
    if (spawnSync('promtool', ['--version']).status === 0) {
      const check = spawnSync('promtool', ['check', 'metrics'], { input: after });
      expect(check.status, String(check.stderr) + String(check.stdout)).toBe(0);
    }
  });
});
