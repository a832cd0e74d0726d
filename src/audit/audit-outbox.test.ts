import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type RunningPostgres } from '../../test/helpers/postgres.js';
import { openDatabase, type Db } from '../store/database.js';
import { PostgresClient } from '../store/postgres.js';
import { AuditLog } from './audit-log.js';
import { AuditOutbox, AuditView } from './audit-outbox.js';

// The audit outbox on a real, throw-away PostgreSQL (ADR 0032): each "replica" is its own SQLite data
// dir with its own AuditLog and outbox; the shared table is one PostgreSQL. Without database.url there is
// no outbox (GET /api/audit answers the SQLite rows as before), so this suite has one engine.
const logger = pino({ level: 'silent' });
let postgres: RunningPostgres;
let shared: PostgresClient;
const directories: string[] = [];
const databases: Db[] = [];

interface Replica {
  log: AuditLog;
  outbox: AuditOutbox;
  view: AuditView;
  database: Db;
}

function replica(clock: () => Date = () => new Date(), retentionDays?: number): Replica {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-outbox-'));
  directories.push(directory);
  const database = openDatabase(directory);
  databases.push(database);
  const log = new AuditLog(database, clock);
  const outbox = new AuditOutbox(log, shared, logger, retentionDays === undefined ? undefined : { retentionDays, clock });
  return { log, outbox, view: new AuditView(log, { outbox, store: shared }), database };
}

beforeAll(async () => {
  postgres = await startPostgres();
  shared = new PostgresClient({ url: postgres.url, poolSize: 4, timeoutMs: 1_000, logger });
});

afterAll(async () => {
  await shared?.close();
  postgres?.remove();
  databases.forEach((database) => database.close());
  directories.forEach((directory) => rmSync(directory, { recursive: true, force: true }));
});

const resources = (items: { resource: string }[], prefix: string): string[] =>
  items
    .map((item) => item.resource)
    .filter((resource) => resource.startsWith(prefix))
    .sort();

describe('audit outbox on PostgreSQL', () => {
  it('PostgreSQL stopped while two replicas record: rows wait (each answers its own), and after the return each row is shipped exactly once, in order', async () => {
    const [one, two] = [replica(), replica()];
    await shared.ready();
    postgres.stop();
    try {
      for (let row = 0; row < 5; row += 1) {
        one.log.record({ user: 'outage', action: 'execute', resource: `outage/one-${row}`, decision: 'allow' });
        two.log.record({ user: 'outage', action: 'execute', resource: `outage/two-${row}`, decision: 'allow' });
      }
      await expect(one.outbox.flush()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      expect(one.log.unshipped(100)).toHaveLength(5);
      const own = await one.view.query({ limit: 100, offset: 0, user: 'outage' });
      expect(resources(own.items, 'outage/')).toEqual([0, 1, 2, 3, 4].map((row) => `outage/one-${row}`));
    } finally {
      postgres.start();
    }
    await Promise.all([one.outbox.flush(), two.outbox.flush(), one.outbox.flush()]);
    expect([one.log.unshipped(100), two.log.unshipped(100)]).toEqual([[], []]);
    const everything = await two.view.query({ limit: 100, offset: 0, user: 'outage' });
    expect(everything.total).toBe(10);
    expect(resources(everything.items, 'outage/')).toEqual([
      ...[0, 1, 2, 3, 4].map((row) => `outage/one-${row}`),
      ...[0, 1, 2, 3, 4].map((row) => `outage/two-${row}`),
    ]);
    // In order: each replica's rows got PostgreSQL sequence numbers in their local order.
    const shipped = await shared.query<{ resource: string }>(
      "SELECT resource FROM audit WHERE \"user\" = 'outage' AND resource LIKE 'outage/one-%' ORDER BY seq",
    );
    expect(shipped.map((row) => row.resource)).toEqual([0, 1, 2, 3, 4].map((row) => `outage/one-${row}`));
  });

  it('filters and paging answer from every replica like one SQLite would', async () => {
    // Newest first by time (rows of one millisecond on two replicas have no order between them): one clock that moves by hand.
    let now = Date.now();
    const clock = (): Date => new Date(now);
    const [one, two] = [replica(clock), replica(clock)];
    one.log.record({ user: 'paged-a', action: 'login', resource: 'auth/paged-a', decision: 'deny' });
    now += 5;
    two.log.record({ user: 'paged-b', action: 'login', resource: 'auth/paged-b', decision: 'allow' });
    one.log.record({ user: 'paged-a', action: 'query', resource: 'chat/paged', decision: 'allow' });
    await Promise.all([one.outbox.flush(), two.outbox.flush()]);
    const byUser = await two.view.query({ limit: 10, offset: 0, user: 'paged-a' });
    expect(byUser.items.map((item) => item.action).sort()).toEqual(['login', 'query']);
    const page = await one.view.query({ limit: 1, offset: 1, action: 'login' });
    expect(page.items).toHaveLength(1);
    const logins = await one.view.query({ limit: 1_000, offset: 0, action: 'login' });
    expect(logins.items.filter((item) => item.user.startsWith('paged-')).map((item) => item.user)).toEqual(['paged-b', 'paged-a']);
  });

  it("ships the cluster of each row and filters every replica's rows by it", async () => {
    const [one, two] = [replica(), replica()];
    one.log.record({ user: 'clustered', action: 'execute', resource: 'deployment/one', decision: 'allow', cluster: 'prod' });
    two.log.record({ user: 'clustered', action: 'execute', resource: 'deployment/two', decision: 'allow', cluster: 'prod' });
    two.log.record({ user: 'clustered', action: 'execute', resource: 'deployment/three', decision: 'allow', cluster: 'dev' });
    one.log.record({ user: 'clustered', action: 'login', resource: 'user/clustered', decision: 'allow' });
    await Promise.all([one.outbox.flush(), two.outbox.flush()]);
    const stored = await shared.query<{ resource: string; cluster: string | null }>(
      'SELECT resource, cluster FROM audit WHERE "user" = \'clustered\' ORDER BY resource',
    );
    expect(stored).toEqual([
      { resource: 'deployment/one', cluster: 'prod' },
      { resource: 'deployment/three', cluster: 'dev' },
      { resource: 'deployment/two', cluster: 'prod' },
      { resource: 'user/clustered', cluster: null },
    ]);
    const prod = await one.view.query({ limit: 10, offset: 0, user: 'clustered', cluster: 'prod' });
    expect(prod.total).toBe(2);
    expect(resources(prod.items, 'deployment/')).toEqual(['deployment/one', 'deployment/two']);
    expect(prod.items.every((item) => item.cluster === 'prod')).toBe(true);
    const everything = await two.view.query({ limit: 10, offset: 0, user: 'clustered' });
    expect(everything.items.find((item) => item.action === 'login')).not.toHaveProperty('cluster');
  });

  it('a row with a NUL character (a login attempt as sent) is shipped, with U+FFFD for it, and never holds back the rows after it', async () => {
    const one = replica();
    one.log.record({ user: 'nul\u0000user', action: 'login', resource: 'user/nul\u0000user', decision: 'deny', outcome: 'refused: throttled\u0000' });
    one.log.record({ user: 'after-nul', action: 'login', resource: 'user/after-nul', decision: 'deny' });
    await one.outbox.flush();
    expect(one.log.unshipped(10)).toEqual([]);
    const answer = await replica().view.query({ limit: 10, offset: 0, action: 'login', user: 'nul\uFFFDuser' });
    expect(answer.items).toEqual([expect.objectContaining({ resource: 'user/nul\uFFFDuser', outcome: 'refused: throttled\uFFFD' })]);
    expect((await replica().view.query({ limit: 10, offset: 0, user: 'after-nul' })).total).toBe(1);
  });

  it('audit.retention_days also prunes the shared table: rows older than the retention are gone from every replica’s answer', async () => {
    let now = Date.parse('2020-01-01T00:00:00.000Z');
    const clock = (): Date => new Date(now);
    const one = replica(clock, 30);
    one.log.record({ user: 'retained', action: 'execute', resource: 'retained/old', decision: 'allow' });
    now += 31 * 86_400_000;
    one.log.record({ user: 'retained', action: 'execute', resource: 'retained/new', decision: 'allow' });
    await one.outbox.flush();
    expect(await one.outbox.pruneShared()).toBeGreaterThanOrEqual(1);
    const answer = await replica().view.query({ limit: 10, offset: 0, user: 'retained' });
    expect(answer.items.map((item) => item.resource)).toEqual(['retained/new']);
  });
});
