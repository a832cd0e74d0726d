// How to run: `make bench` (needs Debian's PostgreSQL, as `make test`, and the test cluster). Figures of
// docs/adr/0032-state-shared-on-postgresql.md:
// 1. session lookup (the two indexed reads every authenticated request makes: session, then user) p50/p99
//    on the data dir's SQLite and on PostgreSQL (a throw-away cluster on loopback);
// 2. authenticated requests per second (GET /api/auth/me) through three `pilothouse` processes on one
//    PostgreSQL, round-robin, against one process on the same PostgreSQL;
// 3. how long a lock takes to refuse the locked user's token on every replica (from the lock's answer
//    to the first 401 on each of the three).
// Never part of the tests.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../src/log.js';
import { openDatabase } from '../src/store/database.js';
import { PostgresClient } from '../src/store/postgres.js';
import { SessionsStore } from '../src/store/sessions-store.js';
import { SqliteClient, type SqlClient } from '../src/store/sql-client.js';
import { UsersStore } from '../src/store/users-store.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { startPilothouse, stopPilothouse, type BenchService } from './helpers.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const lookups = Number(process.env.BENCH_HA_LOOKUPS ?? 5_000);
const seconds = Number(process.env.BENCH_HA_SECONDS ?? 8);
const concurrency = Number(process.env.BENCH_HA_CONCURRENCY ?? 32);
const password = 'bench-admin-password';
const logger = createLogger('silent');

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

const ms = (value: number): string => `${value.toFixed(3)} ms`;

/** p50/p99 of session + user lookups of a few hundred sessions, as the authenticator does them. */
async function sessionLookups(engine: string, client: SqlClient): Promise<void> {
  const users = new UsersStore(client);
  const sessions = new SessionsStore(client);
  const now = new Date();
  const ids: string[] = [];
  for (let index = 0; index < 200; index += 1) {
    const username = `bench-${index}`;
    await users.insert({ username, passwordHash: 'x', role: 'user', email: null, roles: [], enabled: true });
    const id = randomBytes(16).toString('hex');
    await sessions.insert({
      id,
      username,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
      source: null,
      userAgent: null,
    });
    ids.push(id);
  }
  const times: number[] = [];
  for (let index = 0; index < lookups; index += 1) {
    const started = performance.now();
    const session = await sessions.find(ids[index % ids.length]!);
    await users.find(session!.username);
    times.push(performance.now() - started);
  }
  times.sort((left, right) => left - right);
  console.log(`session lookup on ${engine}: p50 ${ms(percentile(times, 0.5))}, p99 ${ms(percentile(times, 0.99))} (${lookups} lookups)`);
}

async function login(service: BenchService, username = 'admin', secret = password): Promise<string> {
  const response = await fetch(`${service.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: secret }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

const me = (service: BenchService, token: string): Promise<number> =>
  fetch(`${service.url}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } }).then(async (response) => {
    await response.arrayBuffer();
    return response.status;
  });

/** Authenticated requests per second through `services`, round-robin, `concurrency` in flight. */
async function throughput(services: BenchService[], token: string): Promise<number> {
  let next = 0;
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      const status = await me(services[next++ % services.length]!, token);
      if (status !== 200) throw new Error(`GET /api/auth/me answered ${status}`);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / seconds;
}

/** From the lock's answer on A to the first 401 on each replica (one request each, in turn, repeated until refused). */
async function lockTakesEffect(fleet: BenchService[], admin: string, round: number): Promise<number> {
  const username = `locked-${round}`;
  const secret = `password-of-${username}`;
  const created = await fetch(`${fleet[0]!.url}/api/admin/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` },
    body: JSON.stringify({ username, password: secret, role: 'user' }),
  });
  if (created.status !== 201) throw new Error(`user not created: ${created.status}`);
  const token = await login(fleet[1]!, username, secret);
  for (const service of fleet) if ((await me(service, token)) !== 200) throw new Error('token refused before the lock');
  const locked = await fetch(`${fleet[0]!.url}/api/admin/lock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` },
    body: JSON.stringify({ username }),
  });
  if (!locked.ok) throw new Error(`lock failed: ${locked.status}`);
  const answered = performance.now();
  const refusedAt = await Promise.all(
    fleet.map(async (service) => {
      while ((await me(service, token)) !== 401) await new Promise((resolve) => setTimeout(resolve, 1));
      return performance.now();
    }),
  );
  return Math.max(...refusedAt) - answered;
}

const postgres = await startPostgres();
const fleet: BenchService[] = [];
const directory = mkdtempSync(join(tmpdir(), 'pilothouse-bench-ha-'));
try {
  const local = openDatabase(directory);
  await sessionLookups('SQLite', new SqliteClient(local));
  local.close();
  const client = new PostgresClient({ url: postgres.url, poolSize: 4, timeoutMs: 5_000, logger });
  await sessionLookups('PostgreSQL', client);
  await client.close();

  const config = `database: {url: "${postgres.url}"}\nauthorization: {jwt: {signing_key: "${randomBytes(32).toString('hex')}"}}\nkubernetes: {namespace: ${`bench-ha-${Date.now()}`}}\n`;
  for (let index = 0; index < 3; index += 1) fleet.push(await startPilothouse(kubeconfig, ['--admin-password', password], { config, fromSources: true }));
  const admin = await login(fleet[0]!);
  for (const service of fleet) await throughput([service], admin).catch(() => 0); // warm-up
  const one = await throughput([fleet[0]!], admin);
  const three = await throughput(fleet, admin);
  console.log(
    `GET /api/auth/me, ${concurrency} in flight, ${seconds} s: one replica ${one.toFixed(0)}/s, three replicas ${three.toFixed(0)}/s (all on one machine)`,
  );

  const delays: number[] = [];
  for (let round = 0; round < 8; round += 1) delays.push(await lockTakesEffect(fleet, admin, round));
  delays.sort((left, right) => left - right);
  console.log(`lock refused on all three replicas: p50 ${ms(percentile(delays, 0.5))}, max ${ms(delays.at(-1)!)} after the lock's answer (8 locks)`);
} finally {
  await Promise.all(fleet.map((service) => stopPilothouse(service)));
  postgres.remove();
  rmSync(directory, { recursive: true, force: true });
}
