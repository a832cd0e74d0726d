import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { tryKubectl } from '../../helpers/kubectl.js';
import { chat } from '../../helpers/chat-stream.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startPostgres, type RunningPostgres } from '../../helpers/postgres.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Three replicas (each its own data dir, so its own SQLite) on one throw-away PostgreSQL and one
// JWT signing key, on the real test cluster (ADR 0032).
let postgres: RunningPostgres;
let replicas: TestService[];
let wire: LlmWireServer;
let replicaConfig: Parameters<typeof startTestService>[0];
const loginLimit = 4;
const namespace = useNamespace('ha-approve');
/** The one Pilothouse namespace of the three replicas (their AccessRequests, leader Lease), as in one release. */
const own = useNamespace('ha-ph');
const configMapExists = async (name: string): Promise<boolean> =>
  (await tryKubectl(clusterKubeconfig(), ['get', 'configmap', name, '-n', namespace.name])).code === 0;

beforeAll(async () => {
  postgres = await startPostgres();
  wire = await startLlmWireServer();
  const signingKey = randomBytes(32).toString('hex');
  const config = {
    database: { url: postgres.url, timeout: '2s' },
    authorization: { jwt: { signing_key: signingKey } },
    limits: { login_attempts_per_minute: loginLimit },
    // The wire server listens on 127.0.0.1 over http: only allowed with llm.allow_private_base_url.
    llm: { allow_private_base_url: true },
    kubernetes: { namespace: own.name },
  };
  replicaConfig = { config };
  replicas = [];
  // One after the other: the first migrates the schema (the others would wait on its advisory lock anyway).
  for (let index = 0; index < 3; index += 1) replicas.push(await startTestService({ config }));
});

afterAll(async () => {
  await Promise.all((replicas ?? []).map((replica) => replica.close()));
  postgres?.remove();
  await wire?.close();
});

const me = (replica: TestService, token: string): Promise<number> => replica.api('GET', '/api/auth/me', { token }).then((response) => response.status);

describe('replicas sharing PostgreSQL', () => {
  it('a token from A works on B and C; a logout on A is refused on B at the next request', async () => {
    const [a, b, c] = replicas as [TestService, TestService, TestService];
    const token = await a.login();
    expect([await me(a, token), await me(b, token), await me(c, token)]).toEqual([200, 200, 200]);
    expect((await a.api('POST', '/api/auth/logout', { token })).status).toBe(200);
    const refused = await b.api('GET', '/api/auth/me', { token });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'revoked' } });
    expect(await me(c, token)).toBe(401);
  });

  it('users are shared, and a lock made on B is refused on A and C at the next request', async () => {
    const [a, b, c] = replicas as [TestService, TestService, TestService];
    const admin = await a.login();
    const username = uniqueName('locked');
    const created = await a.api('POST', '/api/admin/users', { token: admin, body: { username, password: `password-of-${username}`, role: 'user' } });
    expect(created.status).toBe(201);
    const listed = await c.api('GET', '/api/admin/users', { token: admin });
    expect(listed.body.items.map((user: { username: string }) => user.username)).toContain(username);
    const token = await c.login(username, `password-of-${username}`);
    expect(await me(a, token)).toBe(200);
    expect((await b.api('POST', '/api/admin/lock', { token: admin, body: { username } })).status).toBe(200);
    for (const replica of [a, c]) {
      const refused = await replica.api('GET', '/api/auth/me', { token });
      expect(refused.status).toBe(401);
      // The lock revoked the session too; either reason ends it.
      expect(['locked', 'revoked']).toContain(refused.body.details.reason);
    }
    const login = await a.api('POST', '/api/auth/login', { body: { username, password: `password-of-${username}` } });
    expect(login.status).toBe(401);
    expect(login.body.details).toMatchObject({ reason: 'locked' });
  });

  it('the login throttle counts guesses across replicas', async () => {
    const username = uniqueName('guessed');
    const password = `password-of-${username}`;
    await replicas[0]!.api('POST', '/api/admin/users', { token: await replicas[0]!.login(), body: { username, password, role: 'viewer' } });
    const guesses = [];
    for (let index = 0; index < loginLimit; index += 1) {
      const replica = replicas[index % 3]!;
      guesses.push((await replica.api('POST', '/api/auth/login', { body: { username, password: `guess-${index}` } })).status);
    }
    expect(guesses).toEqual(Array.from({ length: loginLimit }, () => 401));
    // The next attempt, on any replica and even with the right password, is throttled.
    for (const replica of replicas) expect((await replica.api('POST', '/api/auth/login', { body: { username, password } })).status).toBe(429);
  });

  it('LLM settings and the key set on A, and user settings set on C, are in use on the others within a second', async () => {
    const [a, b, c] = replicas as [TestService, TestService, TestService];
    const admin = await a.login();
    const body = { provider: 'openai', model: 'wire-model', api_key: 'sk-shared-by-replicas', base_url: `${wire.url}/v1`, max_retries: 0 };
    const saved = await a.api('PUT', '/api/settings/llm', { token: admin, body });
    expect(saved.status).toBe(200);
    await expect
      .poll(async () => (await b.api('GET', '/api/settings/llm', { token: admin })).body, { timeout: 1_000, interval: 50 })
      .toMatchObject({ model: 'wire-model', apiKeySet: true });
    wire.script([{ text: ['answered through B'] }]);
    const run = await chat(b, { message: 'hello', context: {} }, { token: admin });
    expect(run.nth('chunk', 0)).toEqual({ content: 'answered through B' });
    expect(wire.chatRequests().at(-1)?.headers.authorization).toBe('Bearer sk-shared-by-replicas');

    const user = await a.createUser('user');
    expect((await c.api('PUT', '/api/settings', { token: user.token, body: { language: 'ja' } })).status).toBe(200);
    await expect.poll(async () => (await a.api('GET', '/api/settings', { token: user.token })).body.language, { timeout: 1_000, interval: 50 }).toBe('ja');
  });

  it('chat history is shared: a chat started on A is listed on B and continued on C with its history', async () => {
    const [a, b, c] = replicas as [TestService, TestService, TestService];
    const user = await a.createUser('user');
    wire.script([{ text: ['first answer from A'] }]);
    expect((await chat(a, { message: 'remember the word pelican', context: {} }, { token: user.token })).nth('chunk', 0)).toEqual({
      content: 'first answer from A',
    });
    const listed = await b.api('GET', '/api/chat/history', { token: user.token });
    expect(listed.body.items).toHaveLength(1);
    const sessionId = listed.body.items[0].id as string;
    wire.script([{ text: ['second answer from C'] }]);
    await chat(c, { message: 'which word?', context: {}, session_id: sessionId }, { token: user.token });
    expect(JSON.stringify(wire.chatRequests().at(-1)?.body)).toContain('remember the word pelican');
    const history = await b.api('GET', `/api/chat/history?session_id=${sessionId}`, { token: user.token });
    expect(
      history.body.messages.filter((message: { role: string }) => message.role === 'assistant').map((message: { content: string }) => message.content),
    ).toEqual(['first answer from A', 'second answer from C']);
  });

  it('audit rows of all three replicas are on each within 2 s', async () => {
    const marks = replicas.map(() => uniqueName('audit-mark'));
    await Promise.all(
      replicas.map((replica, index) =>
        replica.api('POST', '/api/auth/login', { body: { username: marks[index]!, password: 'wrong' }, headers: { 'X-Request-Id': marks[index]! } }),
      ),
    );
    const admin = await replicas[0]!.login();
    for (const replica of replicas) {
      await expect
        .poll(
          async () => {
            const audit = await replica.api('GET', '/api/audit?action=login&limit=1000', { token: admin });
            return marks.filter((mark) => audit.body.items.some((item: { requestId: string }) => item.requestId === mark)).length;
          },
          { timeout: 2_000, interval: 100 },
        )
        .toBe(3);
    }
  });

  it('PostgreSQL stopped while replicas record audit rows: each replica answers its own meanwhile, and after the return every row is on every replica exactly once', async () => {
    const mark = uniqueName('outage-audit');
    const admin = await replicas[0]!.login();
    postgres.stop();
    try {
      replicas.forEach((replica, index) => {
        for (let row = 0; row < 3; row += 1)
          replica.deps.audit.record({ user: 'controller', action: 'execute', resource: `${mark}/${index}-${row}`, decision: 'allow' });
      });
      const own = replicas[1]!.deps.auditView.query({ limit: 1000, offset: 0, action: 'execute' });
      const ownResources = (await own).items.map((item) => item.resource).filter((resource) => resource.startsWith(mark));
      expect(ownResources.sort()).toEqual([`${mark}/1-0`, `${mark}/1-1`, `${mark}/1-2`]);
    } finally {
      postgres.start();
    }
    for (const replica of replicas) {
      await expect
        .poll(
          async () => {
            const audit = await replica.api('GET', '/api/audit?action=execute&limit=1000', { token: admin });
            if (audit.status !== 200) return [];
            return audit.body.items
              .map((item: { resource: string }) => item.resource)
              .filter((resource: string) => resource.startsWith(mark))
              .sort();
          },
          { timeout: 30_000, interval: 250 },
        )
        .toEqual([0, 1, 2].flatMap((index) => [0, 1, 2].map((row) => `${mark}/${index}-${row}`)));
    }
  });

  it('an approval requested on A is decided on B and runs exactly once; of two simultaneous decisions on B and C the first wins', async () => {
    const [a, b, c] = replicas as [TestService, TestService, TestService];
    const admin = await a.login();
    const command = (name: string) => ({ name: 'kubectl', arguments: { command: `create configmap ${name} -n ${namespace.name}` } });
    wire.script([{ toolCalls: [command('ha-approved')] }, { text: ['Created.'] }]);
    const decisions: number[] = [];
    const run = await chat(
      a,
      { message: 'create it', context: {} },
      {
        token: admin,
        onEvent: async (event) => {
          if (event.event === 'tool_request')
            decisions.push((await b.api('POST', '/api/tool/approve', { token: admin, body: { id: event.data.id, approved: true } })).status);
        },
      },
    );
    expect(decisions).toEqual([200]);
    expect(run.named('tool_execution')).toEqual([expect.objectContaining({ status: 'executed' })]);
    expect(await configMapExists('ha-approved')).toBe(true);
    expect((await c.api('POST', '/api/tool/approve', { token: admin, body: { id: run.nth('tool_request', 0).id, approved: false } })).status).toBe(400);
    // B knew the call's cluster from the stored request alone (the turn runs on A): its audit row names it.
    const approvedId = run.nth('tool_request', 0).id;
    await expect
      .poll(async () => {
        const audit = await b.api('GET', '/api/audit?action=approve&limit=200', { token: admin });
        return audit.body.items
          .filter((item: { details: { id?: string } }) => item.details.id === approvedId)
          .map((item: { cluster?: string }) => item.cluster);
      })
      .toEqual(['home']);

    wire.script([{ toolCalls: [command('ha-raced')] }, { text: ['Done.'] }]);
    const raced: { replica: string; status: number; approved: boolean }[] = [];
    const second = await chat(
      a,
      { message: 'create another', context: {} },
      {
        token: admin,
        onEvent: async (event) => {
          if (event.event !== 'tool_request') return;
          const body = (approved: boolean) => ({ token: admin, body: { id: event.data.id, approved } });
          const [onB, onC] = await Promise.all([b.api('POST', '/api/tool/approve', body(false)), c.api('POST', '/api/tool/approve', body(true))]);
          raced.push({ replica: 'b', status: onB.status, approved: false }, { replica: 'c', status: onC.status, approved: true });
        },
      },
    );
    expect(raced.map((decision) => decision.status).sort()).toEqual([200, 400]);
    const winner = raced.find((decision) => decision.status === 200)!;
    expect(second.nth('tool_execution', 0).status).toBe(winner.approved ? 'executed' : 'rejected');
    expect(await configMapExists('ha-raced')).toBe(winner.approved);
  });

  it('a JIT access request filed on A and approved on B lifts the refusal on C', async () => {
    const [a, b, c] = replicas as [TestService, TestService, TestService];
    const user = await a.createUser('user');
    const apply = (name: string) =>
      c.api('POST', '/api/k8s/configmaps/apply', {
        token: user.token,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: namespace.name }, data: { x: 'y' } },
      });
    expect((await apply('before-grant')).status).toBe(403);
    const asked = await a.api('POST', '/api/access-requests', {
      token: user.token,
      body: { permission: 'execute_write', namespaces: [namespace.name], resources: ['configmaps'], reason: 'ha test', ttl: '1h' },
    });
    expect(asked.status).toBe(201);
    expect((await b.api('POST', `/api/access-requests/${asked.body.id}/approve`, { token: await b.login(), body: {} })).status).toBe(200);
    await expect.poll(async () => (await apply('after-grant')).status, { timeout: 10_000, interval: 200 }).toBe(200);
    expect(await configMapExists('after-grant')).toBe(true);
  });

  it('PostgreSQL down: requests that need it answer 503 UNAVAILABLE within seconds; after its return the same replicas serve again', async () => {
    const [a, b] = replicas as [TestService, TestService];
    const username = uniqueName('outage');
    const admin = await b.login();
    await a.api('POST', '/api/admin/users', { token: admin, body: { username, password: `password-of-${username}`, role: 'viewer' } });
    const token = await a.login(username, `password-of-${username}`);
    postgres.stop();
    try {
      for (const replica of [a, b]) {
        const response = await replica.api('GET', '/api/auth/me', { token });
        expect(response.status).toBe(503);
        expect(response.body).toMatchObject({ code: 'UNAVAILABLE' });
        expect(response.text).not.toMatch(/postgres:\/\/|127\.0\.0\.1:\d+/);
      }
      const login = await b.api('POST', '/api/auth/login', { body: { username, password: `password-of-${username}` } });
      expect(login.status).toBe(503);
    } finally {
      postgres.start();
    }
    let statuses: number[] = [];
    await waitFor(
      async () => {
        statuses = [await me(a, token), await me(b, token)];
        return statuses.every((status) => status === 200);
      },
      30_000,
      250,
    ).catch(() => undefined);
    expect(statuses).toEqual([200, 200]);
  });

  it('a rolling restart of all three under a request loop through a round-robin proxy: no 5xx, the session survives', async () => {
    const token = await replicas[0]!.login();
    const live = new Set(replicas);
    let turn = 0;
    // Like a Service: a replica leaves the rotation before it stops and joins once it serves; like common
    // proxies, a GET whose connection broke (a keep-alive socket closing with its old replica) is sent again.
    const forward = async (path: string, authorization: string, attempts = 2): Promise<Response> => {
      const targets = [...live];
      const target = targets[turn++ % targets.length]!;
      try {
        return await fetch(target.url + path, { headers: { authorization } });
      } catch (error) {
        if (attempts <= 1) throw error;
        return forward(path, authorization, attempts - 1);
      }
    };
    const proxy: Server = createServer((request, response) => {
      void forward(request.url ?? '/', request.headers.authorization ?? '').then(
        async (answer) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()),
        () => response.writeHead(502).end(),
      );
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const statuses: number[] = [];
    let looping = true;
    const loop = (async () => {
      while (looping) {
        statuses.push((await fetch(`${proxyUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status);
      }
    })();
    try {
      for (let index = 0; index < replicas.length; index += 1) {
        const old = replicas[index]!;
        live.delete(old);
        await old.close();
        const fresh = await startTestService(replicaConfig);
        replicas[index] = fresh;
        live.add(fresh);
      }
      // Requests keep going through the three fresh replicas.
      const afterRestart = statuses.length;
      await waitFor(() => statuses.length >= afterRestart + 10, 30_000, 20);
    } finally {
      looping = false;
      await loop;
      await new Promise((resolve) => proxy.close(resolve));
    }
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await me(replicas[2]!, token)).toBe(200);
  });
});
