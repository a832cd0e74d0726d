import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.js';

interface Entry {
  id: number;
  timestamp: string;
  user: string;
  action: string;
  decision: string;
}

const clock = { now: Date.parse('2024-01-01T10:00:00Z') };
const dataDir = mkdtempSync(join(tmpdir(), 'pilothouse-audit-'));
let service: TestService;

async function failedLogins(username: string, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    await service.api('POST', '/api/auth/login', { body: { username, password: 'wrong-password' } });
  }
}

async function query(search: string): Promise<{ status: number; body: { items: Entry[]; total: number; code?: string } }> {
  return service.api('GET', `/api/audit${search}`, { token: service.adminToken });
}

beforeAll(async () => {
  service = await startTestService({ dataDir, clock: () => clock.now });
  await failedLogins('alpha', 3); // day 1
  clock.now = Date.parse('2024-01-02T12:00:00Z');
  service.adminToken = await service.login();
  await failedLogins('beta', 2); // day 2
  clock.now = Date.parse('2024-01-03T08:00:00Z');
  service.adminToken = await service.login();
  for (let index = 0; index < 60; index += 1) {
    service.deps.audit.record({ user: 'bulk', action: 'query', resource: 'chat/bulk', details: { index }, decision: 'allow' });
  }
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /api/audit', () => {
  it('returns {items, total} newest first with a default limit of 50', async () => {
    const { status, body } = await query('');
    expect(status).toBe(200);
    expect(body.items).toHaveLength(50);
    expect(body.total).toBe(60 + 3 + 2 + 3);
    const ids = body.items.map((entry) => entry.id);
    expect([...ids].sort((left, right) => right - left)).toEqual(ids);
    expect(body.items[0]).toMatchObject({ user: 'bulk', action: 'query', details: { index: 59 }, decision: 'allow', timestamp: '2024-01-03T08:00:00.000Z' });
    expect(Object.keys(body.items[0]!)).toEqual(
      expect.arrayContaining(['id', 'timestamp', 'user', 'action', 'resource', 'details', 'decision', 'source', 'requestId', 'outcome']),
    );
  });

  it('paginates with limit and offset without overlap', async () => {
    const first = await query('?user=bulk&limit=25');
    const second = await query('?user=bulk&limit=25&offset=25');
    const third = await query('?user=bulk&limit=25&offset=50');
    expect(first.body.total).toBe(60);
    const all = [...first.body.items, ...second.body.items, ...third.body.items].map((entry) => entry.id);
    expect(all).toHaveLength(60);
    expect(new Set(all).size).toBe(60);
    expect((await query('?limit=1000')).body.items).toHaveLength(68);
  });

  it('filters by action and user, combined', async () => {
    const alpha = await query('?action=login&user=alpha');
    expect(alpha.body.total).toBe(3);
    expect(alpha.body.items.every((entry) => entry.decision === 'deny' && entry.action === 'login')).toBe(true);
    expect((await query('?action=login')).body.total).toBe(3 + 2 + 3);
    expect((await query('?action=lock')).body.total).toBe(0);
  });

  it('filters by from and to as UTC dates or date-times', async () => {
    const dayTwo = await query('?from=2024-01-02&to=2024-01-02');
    expect(dayTwo.body.total).toBe(3);
    expect(dayTwo.body.items.every((entry) => entry.timestamp.startsWith('2024-01-02'))).toBe(true);
    expect((await query('?to=2024-01-01T23:59:59Z')).body.total).toBe(4);
    expect((await query('?from=2024-01-02T13:00:00%2B01:00&action=login')).body.total).toBe(1 + 2 + 1);
    expect((await query('?from=2024-01-03&user=bulk&limit=5')).body.items).toHaveLength(5);
  });

  it('refuses bad values with 400 VALIDATION_ERROR', async () => {
    for (const search of [
      '?limit=0',
      '?limit=1001',
      '?limit=ten',
      '?offset=-1',
      '?action=delete',
      '?from=yesterday',
      '?to=2024-02-30',
      '?from=2024-01-03&to=2024-01-01',
    ]) {
      const response = await query(search);
      expect(response.status, search).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('is admin only', async () => {
    const viewer = await service.createUser('viewer');
    expect((await service.api('GET', '/api/audit', { token: viewer.token })).status).toBe(403);
    expect((await service.api('GET', '/api/audit')).status).toBe(401);
  });
});

describe('retention', () => {
  it('prunes entries older than audit.retention_days at start', async () => {
    await service.close();
    clock.now = Date.parse('2024-01-12T09:00:00Z');
    service = await startTestService({ dataDir, clock: () => clock.now, config: { audit: { retention_days: 10 } } });
    const remaining = await query('?limit=1000');
    // Day 1 (2024-01-01) is more than 10 days old; days 2 and 3 stay, plus this start's admin login.
    expect(remaining.body.items.some((entry) => entry.timestamp.startsWith('2024-01-01'))).toBe(false);
    expect(remaining.body.items.filter((entry) => entry.timestamp.startsWith('2024-01-02'))).toHaveLength(3);
    // Day 3 also holds the `execute` entry of the viewer created by "is admin only" (user creation is audited).
    expect(remaining.body.total).toBe(3 + 63 + 1 + 1);
  });
});
