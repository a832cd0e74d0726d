import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../helpers/cluster.js';
import { applyYaml, runKubectl } from '../helpers/kubectl.js';
import { startPostgres, type RunningPostgres } from '../helpers/postgres.js';
import { startTestService, type TestService } from '../helpers/service.js';

// Short-lived state redeemed on another replica than the one that made it (ADR 0032): three
// replicas on one throw-away PostgreSQL and one JWT signing key, on the real test cluster.
let postgres: RunningPostgres;
let replicas: [TestService, TestService, TestService];
const namespace = useNamespace('ha-term');
const own = useNamespace('ha-term-ph');

beforeAll(async () => {
  postgres = await startPostgres();
  const config = {
    database: { url: postgres.url, timeout: '2s' },
    authorization: { jwt: { signing_key: randomBytes(32).toString('hex') } },
    kubernetes: { namespace: own.name },
  };
  const started: TestService[] = [];
  for (let index = 0; index < 3; index += 1) started.push(await startTestService({ config }));
  replicas = started as [TestService, TestService, TestService];
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Pod\nmetadata: {name: shell}\nspec:\n  containers:\n  - {name: main, image: busybox}`,
    namespace.name,
  );
  await waitFor(
    async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', 'shell', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
  );
});

afterAll(async () => {
  await Promise.all((replicas ?? []).map((replica) => replica.close()));
  postgres?.remove();
});

/** The handshake status of a terminal WebSocket (an accepted one is closed at once) and, when refused, the body's reason. */
function handshake(replica: TestService, ticket: string): Promise<{ status: number; reason?: string }> {
  const url = `${replica.url.replace('http', 'ws')}/api/pods/shell/terminal?namespace=${namespace.name}&ticket=${ticket}&shell=/bin/sh`;
  const socket = new WebSocket(url, ['pilothouse.terminal.v1']);
  return new Promise((resolve) => {
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, reason: (JSON.parse(text) as { details: { reason: string } }).details.reason }));
    });
    socket.on('error', () => resolve({ status: -1 }));
    socket.on('open', () => {
      socket.close();
      resolve({ status: 101 });
    });
  });
}

describe('terminal tickets across replicas', () => {
  it('a ticket issued on A opens the terminal on B once; C and A then refuse it; an unknown one is refused everywhere', async () => {
    const [a, b, c] = replicas;
    const token = await a.login();
    const issued = await a.api('POST', '/api/pods/shell/terminal/ticket', { token, body: { namespace: namespace.name } });
    expect(issued.status).toBe(201);
    const ticket = issued.body.ticket as string;
    expect(await handshake(b, ticket)).toEqual({ status: 101 });
    expect(await handshake(c, ticket)).toEqual({ status: 401, reason: 'invalid_ticket' });
    expect(await handshake(a, ticket)).toEqual({ status: 401, reason: 'invalid_ticket' });
    expect(await handshake(b, 'made-up')).toEqual({ status: 401, reason: 'invalid_ticket' });
  });

  it('the same ticket sent to all three at once opens exactly one terminal', async () => {
    const [a] = replicas;
    const token = await a.login();
    const ticket = (await a.api('POST', '/api/pods/shell/terminal/ticket', { token, body: { namespace: namespace.name } })).body.ticket as string;
    const outcomes = await Promise.all(replicas.map((replica) => handshake(replica, ticket)));
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([101, 401, 401]);
  });
});
