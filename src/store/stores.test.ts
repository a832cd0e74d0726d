import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type RunningPostgres } from '../../test/helpers/postgres.js';
import { freePort } from '../../test/helpers/slapd.js';
import { AuditLog } from '../audit/audit-log.js';
import { AuditOutbox, AuditView } from '../audit/audit-outbox.js';
import { isAppError } from '../errors.js';
import { ChatStore } from './chat-store.js';
import { DrainJobsStore } from './drain-jobs-store.js';
import { HelmRepositoriesStore } from './helm-repositories-store.js';
import { openDatabase, type Db } from './database.js';
import { PostgresClient } from './postgres.js';
import { RateWindowsStore } from './rate-windows-store.js';
import { SealedTokensStore } from './sealed-tokens-store.js';
import { SessionsStore } from './sessions-store.js';
import { SettingsStore } from './settings-store.js';
import { SqliteClient, type SqlClient } from './sql-client.js';
import { UsageStore, type UsageRow } from './usage-store.js';
import { UsersStore } from './users-store.js';

// One suite, both engines (ADR 0032): the data dir's SQLite and a throw-away PostgreSQL from
// Debian's packages. The PostgreSQL run fails, never skips, when PostgreSQL cannot start.
const logger = pino({ level: 'silent' });

interface Engine {
  /** A client on the engine's database; on PostgreSQL another client is another replica. */
  client(): SqlClient;
  close(): Promise<void>;
}

async function sqliteEngine(): Promise<Engine> {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-stores-'));
  const database: Db = openDatabase(directory);
  const client = new SqliteClient(database);
  return Promise.resolve({
    client: () => client,
    close: () => {
      database.close();
      rmSync(directory, { recursive: true, force: true });
      return Promise.resolve();
    },
  });
}

let postgres: RunningPostgres | undefined;

async function postgresEngine(): Promise<Engine> {
  postgres ??= await startPostgres();
  const url = postgres.url;
  const clients: PostgresClient[] = [];
  return {
    client: () => {
      const client = new PostgresClient({ url, poolSize: 4, timeoutMs: 3_000, logger });
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}

afterAll(() => postgres?.remove());

const newUser = { passwordHash: 'hash', role: 'admin' as const, email: null, roles: ['ops'], enabled: true };

describe.each([
  ['sqlite', sqliteEngine],
  ['postgres', postgresEngine],
])('stores on %s', (_name, open) => {
  let engine: Engine;
  let client: SqlClient;
  beforeAll(async () => {
    engine = await open();
    client = engine.client();
  }, 60_000);
  afterAll(() => engine.close());

  it('users: insert once, find, update, count active admins, keep directory names off local accounts, delete', async () => {
    const users = new UsersStore(client);
    expect(await users.insert({ ...newUser, username: 'ada' })).toBe(true);
    expect(await users.insert({ ...newUser, username: 'ada' })).toBe(false);
    expect(await users.find('ada')).toMatchObject({ username: 'ada', role: 'admin', roles: ['ops'], enabled: true, locked: false, source: 'local' });
    expect(await users.countActiveAdmins()).toBe(1);
    expect(await users.update('ada', { locked: true, roles: [] })).toMatchObject({ locked: true, roles: [] });
    expect(await users.countActiveAdmins()).toBe(0);
    expect(await users.upsertExternal({ username: 'ada', role: 'viewer', email: null }, 'ldap')).toBeUndefined();
    expect(await users.upsertExternal({ username: 'lin', role: 'viewer', email: 'lin@example.com' }, 'ldap')).toMatchObject({ source: 'ldap', role: 'viewer' });
    expect(await users.upsertExternal({ username: 'lin', role: 'user', email: null }, 'ldap')).toMatchObject({ role: 'user', email: null });
    expect((await users.list()).map((user) => user.username)).toEqual(['ada', 'lin']);
    expect(await users.delete('lin')).toBe(true);
    expect(await users.find('lin')).toBeUndefined();
  });

  it('sessions: insert, revoke once, revoke all of a user, extend only open ones, prune ended ones', async () => {
    const sessions = new SessionsStore(client);
    const base = { username: 'ses', createdAt: '2030-01-01T00:00:00.000Z', expiresAt: '2030-01-01T01:00:00.000Z', source: '10.0.0.1', userAgent: null };
    await sessions.insert({ ...base, id: 's1', groups: ['oidc:ops'] });
    await sessions.insert({ ...base, id: 's2', createdAt: '2030-01-01T00:00:01.000Z' });
    expect(await sessions.find('s1')).toMatchObject({ id: 's1', revokedAt: null, groups: ['oidc:ops'] });
    expect((await sessions.listFor('ses')).map((session) => session.id)).toEqual(['s2', 's1']);
    expect(await sessions.revoke('s1', '2030-01-01T00:10:00.000Z')).toBe(true);
    expect(await sessions.revoke('s1', '2030-01-01T00:11:00.000Z')).toBe(false);
    await sessions.extend('s1', '2030-01-01T05:00:00.000Z');
    await sessions.extend('s2', '2030-01-01T05:00:00.000Z');
    expect((await sessions.find('s1'))?.expiresAt).toBe(base.expiresAt);
    expect((await sessions.find('s2'))?.expiresAt).toBe('2030-01-01T05:00:00.000Z');
    expect(await sessions.revokeAllFor('ses', '2030-01-01T00:20:00.000Z')).toBe(1);
    expect(await sessions.pruneEndedBefore('2030-01-01T00:15:00.000Z')).toBe(1);
    expect(await sessions.find('s1')).toBeUndefined();
  });

  it('rate windows: parallel hits are each counted once; a window past its length starts again; reset clears', async () => {
    const windows = new RateWindowsStore(client);
    const counts = await Promise.all(Array.from({ length: 20 }, () => windows.hit('login:x', 1_000, 60_000)));
    expect(counts.map((window) => window.count).sort((left, right) => left - right)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(await windows.hit('login:x', 60_999, 60_000)).toEqual({ start: 1_000, count: 21 });
    expect(await windows.hit('login:x', 61_000, 60_000)).toEqual({ start: 61_000, count: 1 });
    await windows.reset('login:x');
    expect(await windows.find('login:x')).toBeUndefined();
  });

  it('settings: JSON values by key, replaced in place, listed, deleted', async () => {
    const settings = new SettingsStore(client);
    await settings.set('llm', { provider: 'openai', model: 'a' });
    await settings.set('llm', { provider: 'openai', model: 'b' });
    await settings.set('user:ada', { language: 'ko' });
    expect(await settings.get('llm')).toEqual({ provider: 'openai', model: 'b' });
    expect(await settings.all()).toEqual([
      { key: 'llm', value: { provider: 'openai', model: 'b' } },
      { key: 'user:ada', value: { language: 'ko' } },
    ]);
    await settings.delete('llm');
    expect(await settings.get('llm')).toBeUndefined();
  });

  it('chat: sessions per user, entries in order, the session marked updated, deleted with its entries', async () => {
    let clock = Date.parse('2030-01-01T00:00:00.000Z');
    const chats = new ChatStore(client, () => new Date((clock += 1000)));
    await chats.createSession('c1', 'ada', 'first');
    await chats.createSession('c2', 'ada', 'second');
    const first = await chats.append('c1', 'user', { content: 'hello' });
    const second = await chats.append('c1', 'assistant', { content: 'hi', toolCalls: [] });
    expect(second.id).toBeGreaterThan(first.id);
    expect((await chats.entries('c1')).map((entry) => [entry.kind, entry.payload])).toEqual([
      ['user', { content: 'hello' }],
      ['assistant', { content: 'hi', toolCalls: [] }],
    ]);
    expect((await chats.listSessions('ada')).map((session) => session.id)).toEqual(['c1', 'c2']);
    expect(await chats.deleteSession('c1')).toBe(true);
    expect(await chats.entries('c1')).toEqual([]);
    expect(await chats.getSession('c1')).toBeUndefined();
  });

  it('sealed tokens: taken once, refused after expiry, peeked without taking, counted and pruned; the row holds neither the value nor the payload', async () => {
    const tokens = new SealedTokensStore(client);
    await tokens.put('terminal', 'ticket-1', { authorization: 'Bearer secret-jwt', pod: 'p' }, 10_000);
    await tokens.put('terminal', 'ticket-2', { pod: 'q' }, 2_000);
    await tokens.put('oidc-login', 'ticket-1', { other: 'kind' }, 10_000);
    const rows = await client.query<{ id: string; payload: string }>("SELECT id, payload FROM sealed_tokens WHERE kind = 'terminal'");
    expect(JSON.stringify(rows)).not.toMatch(/ticket-1|secret-jwt|Bearer/);
    expect(await tokens.count('terminal', 1_000)).toBe(2);
    expect(await tokens.peek('terminal', 'ticket-1', 1_000)).toEqual({ authorization: 'Bearer secret-jwt', pod: 'p' });
    expect(await tokens.take('terminal', 'ticket-1', 1_000)).toEqual({ authorization: 'Bearer secret-jwt', pod: 'p' });
    expect(await tokens.take('terminal', 'ticket-1', 1_000)).toBeUndefined();
    expect(await tokens.take('terminal', 'ticket-2', 2_000)).toBeUndefined();
    expect(await tokens.take('terminal', 'made-up', 1_000)).toBeUndefined();
    expect(await tokens.peek('oidc-login', 'ticket-1', 1_000)).toEqual({ other: 'kind' });
    expect(await tokens.prune(10_000)).toBe(1);
    expect(await tokens.count('oidc-login', 0)).toBe(0);
  });

  it('sealed tokens: a value is claimed once, by the first of two replicas', async () => {
    const tokens = new SealedTokensStore(client);
    const other = new SealedTokensStore(engine.client());
    const claims = await Promise.all([tokens.claim('oidc-login', 'state-1', 10_000), other.claim('oidc-login', 'state-1', 10_000)]);
    expect(claims.sort()).toEqual([false, true]);
    expect(await tokens.claim('oidc-login', 'state-1', 10_000)).toBe(false);
    expect(await tokens.claim('oidc-login', 'state-2', 10_000)).toBe(true);
    expect(await other.peek('oidc-login', 'state-1', 1_000)).toEqual({ claimed: true });
  });

  it('drain jobs: progress written in place, heartbeats, abandoned only when stale and open, never written after the end, pruned', async () => {
    const jobs = new DrainJobsStore(client);
    await jobs.insert({ id: 'd1', node: 'n1', requester: 'ada', cluster: 'b', heartbeatAt: 1_000 });
    expect(await jobs.progress('d1', [{ type: 'cordoned' }], 2_000, false)).toBe(true);
    expect(await jobs.find('d1')).toMatchObject({
      node: 'n1',
      requester: 'ada',
      cluster: 'b',
      events: [{ type: 'cordoned' }],
      heartbeatAt: 2_000,
      finishedAt: null,
    });
    await jobs.heartbeat(['d1'], 5_000);
    expect(await jobs.abandon('d1', [{ type: 'result' }], 6_000, 4_000)).toBe(false);
    expect(await jobs.abandon('d1', [{ type: 'cordoned' }, { type: 'result' }], 9_000, 8_000)).toBe(true);
    expect(await jobs.progress('d1', [{ type: 'late' }], 9_500, true)).toBe(false);
    expect(await jobs.find('d1')).toMatchObject({ events: [{ type: 'cordoned' }, { type: 'result' }], finishedAt: 9_000 });
    await jobs.insert({ id: 'd2', node: 'n2', requester: 'ada', cluster: null, heartbeatAt: 1_000 });
    expect((await jobs.find('d2'))?.cluster).toBeNull();
    expect(await jobs.progress('d2', [{ type: 'result' }], 3_000, true)).toBe(true);
    expect(await jobs.abandon('d2', [], 9_000, 8_000)).toBe(false);
    expect(await jobs.prune(5_000)).toBe(1);
    expect(await jobs.find('d2')).toBeUndefined();
    expect(await jobs.find('d1')).toBeDefined();
  });

  it('helm repositories: put, repointed in place, listed by name, deleted once', async () => {
    const repositories = new HelmRepositoriesStore(client);
    await repositories.put({ name: 'zeta', url: 'https://charts.example/z' });
    await repositories.put({ name: 'alpha', url: 'https://charts.example/a' });
    await repositories.put({ name: 'zeta', url: 'https://charts.example/z2' });
    await repositories.putIfAbsent({ name: 'zeta', url: 'https://charts.example/imported' });
    expect(await repositories.list()).toEqual([
      { name: 'alpha', url: 'https://charts.example/a' },
      { name: 'zeta', url: 'https://charts.example/z2' },
    ]);
    expect(await repositories.delete('alpha')).toBe(true);
    expect(await repositories.delete('alpha')).toBe(false);
    expect((await repositories.list()).map((repository) => repository.name)).toEqual(['zeta']);
  });

  it('llm usage: rows summed by day, user, cluster and model; filters narrow the totals; big counts stay numbers', async () => {
    const usage = new UsageStore(client);
    const row = (changes: Partial<UsageRow>): UsageRow => ({
      at: '2026-03-01T10:00:00.000Z',
      day: '2026-03-01',
      username: 'ann',
      cluster: 'home',
      provider: 'anthropic',
      model: 'claude-x',
      source: 'chat',
      sessionId: 's1',
      inputTokens: 1_000,
      outputTokens: 100,
      cachedInputTokens: 400,
      cost: 0.5,
      ...changes,
    });
    await usage.insert(row({}));
    await usage.insert(row({ inputTokens: 3_000_000_000, cost: 1.25 }));
    await usage.insert(row({ username: 'bob', cluster: null, model: 'gpt-x', provider: 'openai' }));
    await usage.insert(row({ day: '2026-03-02', at: '2026-03-02T01:00:00.000Z', source: 'investigation' }));
    const groups = await usage.groups({ from: '2026-03-01', to: '2026-03-01' });
    expect(groups).toEqual([
      {
        day: '2026-03-01',
        username: 'ann',
        cluster: 'home',
        provider: 'anthropic',
        model: 'claude-x',
        calls: 2,
        inputTokens: 3_000_001_000,
        outputTokens: 200,
        cachedInputTokens: 800,
        cost: 1.75,
      },
      {
        day: '2026-03-01',
        username: 'bob',
        cluster: null,
        provider: 'openai',
        model: 'gpt-x',
        calls: 1,
        inputTokens: 1_000,
        outputTokens: 100,
        cachedInputTokens: 400,
        cost: 0.5,
      },
    ]);
    expect(await usage.totals({ username: 'ann' })).toMatchObject({ calls: 3, outputTokens: 300 });
    expect(await usage.totals({ username: 'ann', source: 'chat', from: '2026-03-02' })).toMatchObject({ calls: 0, inputTokens: 0, cost: 0 });
    expect((await usage.groups({ cluster: 'home', model: 'claude-x' })).map((group) => group.day)).toEqual(['2026-03-02', '2026-03-01']);
  });

  it('a transaction commits together or not at all', async () => {
    const users = new UsersStore(client);
    await expect(
      client.transaction(async (transaction) => {
        await new UsersStore(transaction).insert({ ...newUser, username: 'tx-gone' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await users.find('tx-gone')).toBeUndefined();
    await client.transaction((transaction) => new UsersStore(transaction).insert({ ...newUser, username: 'tx-kept' }));
    expect(await users.find('tx-kept')).toBeDefined();
  });
});

describe('PostgreSQL shared by replicas', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await postgresEngine();
  }, 60_000);
  afterAll(() => engine.close());

  it('replicas migrating at once migrate once; a revocation or lock on one is read by the other; the login throttle counts across them', async () => {
    const [replicaA, replicaB, replicaC] = [engine.client(), engine.client(), engine.client()];
    await Promise.all([replicaA, replicaB, replicaC].map((replica) => replica.query('SELECT 1')));
    await new UsersStore(replicaA).insert({ ...newUser, username: 'shared' });
    await new SessionsStore(replicaA).insert({ id: 'shared-1', username: 'shared', createdAt: 'a', expiresAt: 'b', source: null, userAgent: null });
    await new SessionsStore(replicaB).revoke('shared-1', 'now');
    expect((await new SessionsStore(replicaC).find('shared-1'))?.revokedAt).toBe('now');
    await new UsersStore(replicaB).update('shared', { locked: true });
    expect((await new UsersStore(replicaA).find('shared'))?.locked).toBe(true);
    const hits = [replicaA, replicaB, replicaC].map((replica) => new RateWindowsStore(replica).hit('login:shared', 5_000, 60_000));
    expect((await Promise.all(hits)).map((window) => window.count).sort()).toEqual([1, 2, 3]);
  });

  it('a sealed token put on one replica is taken once when three take it at the same moment', async () => {
    const [replicaA, replicaB, replicaC] = [engine.client(), engine.client(), engine.client()];
    await new SealedTokensStore(replicaA).put('terminal', 'race', { pod: 'p' }, Date.now() + 30_000);
    const taken = await Promise.all([replicaA, replicaB, replicaC].map((replica) => new SealedTokensStore(replica).take('terminal', 'race', Date.now())));
    expect(taken.filter((payload) => payload !== undefined)).toEqual([{ pod: 'p' }]);
  });

  it('the audit outbox ships rows in order, once: a row shipped again (a crash before it was marked) is not doubled', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'pilothouse-outbox-'));
    const local = openDatabase(directory);
    try {
      const shared = engine.client();
      const log = new AuditLog(local);
      const outbox = new AuditOutbox(log, shared, logger);
      const view = new AuditView(log, { outbox, store: shared });
      for (const name of ['a', 'b', 'c']) log.record({ user: 'outbox', action: 'execute', resource: `outbox/${name}`, decision: 'allow' });
      await outbox.flush();
      expect(log.unshipped(10)).toEqual([]);
      local.prepare('UPDATE audit SET shipped = 0').run();
      await outbox.flush();
      const answer = await view.query({ limit: 100, offset: 0, user: 'outbox' });
      expect(answer.total).toBe(3);
      expect(answer.items.map((item) => item.resource)).toEqual(['outbox/c', 'outbox/b', 'outbox/a']);
    } finally {
      local.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('PostgreSQL away answers 503 UNAVAILABLE within the timeout (never hangs) and the same client serves again once it is back', async () => {
    const nobody = new PostgresClient({ url: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`, poolSize: 2, timeoutMs: 1_000, logger });
    const refused = await nobody.query('SELECT 1').catch((error: unknown) => error);
    expect(isAppError(refused) && refused.code).toBe('UNAVAILABLE');
    expect(String((refused as Error).message)).not.toContain('postgres://');
    await nobody.close();

    const replica = engine.client();
    const users = new UsersStore(replica);
    await users.insert({ ...newUser, username: 'outage' });
    postgres!.stop();
    try {
      const failed = await users.find('outage').catch((error: unknown) => error);
      expect(isAppError(failed) && failed.code).toBe('UNAVAILABLE');
    } finally {
      postgres!.start();
    }
    expect(await users.find('outage')).toMatchObject({ username: 'outage' });
  });
});
