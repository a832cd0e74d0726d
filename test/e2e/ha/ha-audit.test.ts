import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName, useNamespace } from '../../helpers/cluster.js';
import { startPostgres, type RunningPostgres } from '../../helpers/postgres.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// The audit outbox under a PostgreSQL stop (issue 25, ADR 0032): three replicas on one database apply
// ConfigMaps through the API (each apply audited `execute` in the replica's own SQLite before it answers)
// in a loop while PostgreSQL is stopped and started again. Every acknowledged apply must then be in
// every replica's GET /api/audit exactly once: none lost while PostgreSQL was away, none shipped twice.
const namespace = useNamespace('ha-audit');
let postgres: RunningPostgres;
let replicas: TestService[];
const loginLimit = 2;

beforeAll(async () => {
  postgres = await startPostgres();
  const config = {
    database: { url: postgres.url, timeout: '2s' },
    authorization: { jwt: { signing_key: randomBytes(32).toString('hex') } },
    limits: { login_attempts_per_minute: loginLimit },
  };
  replicas = [];
  for (let index = 0; index < 3; index += 1) replicas.push(await startTestService({ config }));
}, 120_000);

afterAll(async () => {
  await Promise.all((replicas ?? []).map((replica) => replica.close()));
  postgres?.remove();
});

interface Apply {
  requestId: string;
  status: number;
}

/** One audited apply of a ConfigMap through `replica`, tagged with its own request id. */
async function apply(replica: TestService, token: string, name: string): Promise<Apply> {
  const requestId = uniqueName('req');
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: namespace.name }, data: { by: requestId } };
  const response = await replica.api('POST', '/api/k8s/configmaps/apply', { token, body, headers: { 'X-Request-Id': requestId } });
  return { requestId, status: response.status };
}

describe('audit outbox while PostgreSQL stops and returns', () => {
  it('every apply a replica acknowledged around a PostgreSQL stop is on every replica’s audit exactly once after its return', async () => {
    const token = await replicas[0]!.login();
    const applies: Apply[] = [];
    const round = async (label: string): Promise<Apply[]> => {
      const done = await Promise.all(replicas.map((replica, index) => apply(replica, token, `${label}-${index}`)));
      applies.push(...done);
      return done;
    };
    for (let index = 0; index < 3; index += 1) await round(`before-${index}`);
    // Rows of the last round were written a moment ago: most still wait in their SQLite when PostgreSQL stops.
    await round('at-stop');
    postgres.stop();
    try {
      // Refused (503 UNAVAILABLE: the session lookup needs the database), so not acknowledged.
      expect((await round('while-down')).map((done) => done.status)).toEqual([503, 503, 503]);
    } finally {
      postgres.start();
    }
    // Serving again within 30 s of the return (the pool reconnects), then more applies.
    await expect.poll(async () => (await replicas[1]!.api('GET', '/api/auth/me', { token })).status, { timeout: 30_000, interval: 250 }).toBe(200);
    for (let index = 0; index < 2; index += 1) await round(`after-${index}`);

    const acknowledged = applies.filter((done) => done.status === 200 || done.status === 201).map((done) => done.requestId);
    expect(acknowledged).toHaveLength(applies.length - 3);
    for (const replica of replicas) {
      await expect
        .poll(
          async () => {
            const audit = await replica.api('GET', '/api/audit?action=execute&limit=1000', { token });
            if (audit.status !== 200) return 'not serving';
            const counts = new Map<string, number>();
            for (const item of audit.body.items as { requestId: string | null }[])
              if (item.requestId) counts.set(item.requestId, (counts.get(item.requestId) ?? 0) + 1);
            return acknowledged.filter((requestId) => counts.get(requestId) !== 1);
          },
          { timeout: 10_000, interval: 250 },
        )
        .toEqual([]);
    }
  });

  it('a login attempt whose username holds a NUL character (throttled, so audited as sent) never holds back its replica’s later audit rows', async () => {
    const [a, b, c] = replicas as [TestService, TestService, TestService];
    const token = await a.login();
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= loginLimit; attempt += 1)
      statuses.push((await a.api('POST', '/api/auth/login', { body: { username: 'evil\u0000name', password: 'guess' } })).status);
    expect(statuses.at(-1)).toBe(429);
    // PostgreSQL cannot store a NUL: the caller's input is a 400, never a 500.
    expect(statuses.slice(0, -1).every((status) => status === 400 || status === 401)).toBe(true);
    const later = await apply(a, token, uniqueName('after-nul'));
    expect(later.status).toBe(200);
    await expect
      .poll(
        async () => {
          const audit = await b.api('GET', '/api/audit?action=execute&limit=1000', { token });
          return audit.body.items.some((item: { requestId: string }) => item.requestId === later.requestId);
        },
        { timeout: 2_000, interval: 100 },
      )
      .toBe(true);
    const logins = await c.api('GET', `/api/audit?action=login&user=${encodeURIComponent('evil\uFFFDname')}&limit=100`, { token });
    expect(logins.body.items.length).toBeGreaterThan(0);
    // Shipped rows keep their cluster (ADR 0035): another replica finds the apply by ?cluster= from PostgreSQL; a sign-in has none.
    const onHome = await c.api('GET', '/api/audit?action=execute&cluster=home&limit=1000', { token });
    expect(onHome.body.items.find((item: { requestId: string }) => item.requestId === later.requestId)).toMatchObject({ cluster: 'home' });
    const elsewhere = await c.api('GET', '/api/audit?action=execute&cluster=elsewhere&limit=1000', { token });
    expect(elsewhere.body).toEqual({ items: [], total: 0 });
    expect(logins.body.items.every((item: { cluster?: string }) => item.cluster === undefined)).toBe(true);
  });
});
