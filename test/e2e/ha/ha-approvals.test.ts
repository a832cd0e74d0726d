import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as yaml from 'js-yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { chat, type ChatEvent } from '../../helpers/chat-stream.js';
import { tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startPostgres, type RunningPostgres } from '../../helpers/postgres.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';
import { pilothouseCommand } from '../mcp/mcp-server-process.js';

// Approvals across replicas when the replica running the turn dies (issue 25, ADR 0032): replica A is a
// real `pilothouse` process (from the sources) killed with SIGKILL, no graceful shutdown; B and C run
// in-process (test/e2e/ha/ha.test.ts covers decisions through another replica and two at once). All three share one throw-away
// PostgreSQL and one JWT signing key, on the real test cluster; the LLM is the scripted wire server.
const namespace = useNamespace('ha-approve');
let postgres: RunningPostgres;
let wire: LlmWireServer;
let b: TestService;
let c: TestService;
let a: ChildReplica;
let admin: string;

interface ChildReplica {
  url: string;
  child: ChildProcess;
  directory: string;
  exited: Promise<void>;
}

/** Starts `pilothouse` as a child process with `config`; resolves once it listens. */
async function startChild(config: Record<string, unknown>): Promise<ChildReplica> {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-ha-child-'));
  writeFileSync(join(directory, 'config.yaml'), yaml.dump(config));
  const { command, args } = pilothouseCommand([
    '--config',
    join(directory, 'config.yaml'),
    '--data-dir',
    join(directory, 'data'),
    '--kubeconfig',
    clusterKubeconfig(),
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--admin-password',
    testAdminPassword,
    '--log-level',
    'warn',
  ]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: directory } });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pilothouse did not start: ${stderr}`)), 90_000);
    void exited.then(() => reject(new Error(`pilothouse exited: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
  });
  return { url, child, directory, exited };
}

const kubectlCall = (command: string) => ({ name: 'kubectl', arguments: { command } });
const configMapExists = async (name: string): Promise<boolean> =>
  (await tryKubectl(clusterKubeconfig(), ['get', 'configmap', name, '-n', namespace.name])).code === 0;

async function decide(replica: TestService, id: string, approved: boolean): Promise<{ status: number; body: any }> {
  const response = await replica.api('POST', '/api/tool/approve', { token: admin, body: { id, approved } });
  return { status: response.status, body: response.body };
}

/** `chat` against the child replica (the helper needs only the URL). */
const onReplicaA = (): TestService => ({ url: a.url }) as TestService;

beforeAll(async () => {
  postgres = await startPostgres();
  wire = await startLlmWireServer();
  const config = {
    database: { url: postgres.url, timeout: '2s' },
    authorization: { jwt: { signing_key: randomBytes(32).toString('hex') } },
    llm: {
      provider: 'openai' as const,
      model: 'wire-model',
      base_url: `${wire.url}/v1`,
      api_key: 'sk-ha-approvals',
      max_retries: 0,
      allow_private_base_url: true,
    },
  };
  // B first: it migrates the schema.
  b = await startTestService({ config });
  c = await startTestService({ config });
  a = await startChild({
    ...config,
    // A short approval wait on A, so that a timeout there is quick to see.
    authorization: { ...config.authorization, tool_approval: { timeout: '2s' } },
    kubernetes: { namespace: uniqueName('ph') },
    limits: { requests_per_minute: 100_000, chat_requests_per_minute: 10_000, login_attempts_per_minute: 10_000 },
  });
  admin = b.adminToken;
}, 180_000);

afterAll(async () => {
  if (a) {
    a.child.kill('SIGKILL');
    await a.exited;
    rmSync(a.directory, { recursive: true, force: true });
  }
  await Promise.all([b?.close(), c?.close()]);
  postgres?.remove();
  await wire?.close();
});

beforeEach(() => wire.reset());

describe('approvals across replicas: same ids, timeouts, a killed replica', () => {
  it('two chats on A and B wait at once for calls the model gave the same id: each is decided and runs on its own', async () => {
    const names = [uniqueName('cm-same-id-a'), uniqueName('cm-same-id-b')];
    // The wire server names every first tool call call_wire_0, like providers whose ids are unique only per answer.
    wire.script([
      { toolCalls: [kubectlCall(`create configmap ${names[0]} -n ${namespace.name}`)] },
      { toolCalls: [kubectlCall(`create configmap ${names[1]} -n ${namespace.name}`)] },
      { text: ['One done.'] },
      { text: ['Other done.'] },
    ]);
    let waiting = 0;
    let bothWaiting: () => void = () => undefined;
    const both = new Promise<void>((resolve) => (bothWaiting = resolve));
    const ids: string[] = [];
    const decided: { status: number; body: any }[] = [];
    const waitThenApprove = (via: TestService) => async (event: ChatEvent) => {
      if (event.event !== 'tool_request') return;
      ids.push(event.data.id);
      if ((waiting += 1) === 2) bothWaiting();
      await both;
      decided.push(await decide(via, event.data.id, true));
    };
    const first = chat(onReplicaA(), { message: 'first', context: { namespace: namespace.name } }, { token: admin, onEvent: waitThenApprove(c) });
    // The first chat took the first scripted answer and asks for approval before the second starts.
    await waitFor(() => ids.length === 1);
    const second = chat(b, { message: 'second', context: { namespace: namespace.name } }, { token: admin, onEvent: waitThenApprove(c) });
    const runs = await Promise.all([first, second]);
    expect(runs.map((run) => run.named('error'))).toEqual([[], []]);
    expect(new Set(ids).size).toBe(2);
    expect(decided.map((decision) => decision.status)).toEqual([200, 200]);
    expect(runs.map((run) => run.nth('tool_execution').status)).toEqual(['executed', 'executed']);
    expect([await configMapExists(names[0]!), await configMapExists(names[1]!)]).toEqual([true, true]);
  });

  it('a call on A that nobody decides times out there; a late decision through B is refused and it never runs', async () => {
    const name = uniqueName('cm-late');
    wire.script([{ toolCalls: [kubectlCall(`create configmap ${name} -n ${namespace.name}`)] }, { text: ['Nobody answered.'] }]);
    const run = await chat(onReplicaA(), { message: `create ${name}`, context: { namespace: namespace.name } }, { token: admin });
    const id = run.nth('tool_request').id;
    expect(run.nth('tool_execution')).toMatchObject({ id, status: 'timeout' });
    const late = await decide(b, id, true);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { id } });
    expect(await configMapExists(name)).toBe(false);
  });

  it('A killed with SIGKILL while its approval waits: the decision on B is refused with a clear error, nothing ever runs, and the chat continues on B from its history', async () => {
    const name = uniqueName('cm-orphan');
    wire.script([{ toolCalls: [kubectlCall(`create configmap ${name} -n ${namespace.name}`)] }]);
    let sessionId = '';
    let requested: (id: string) => void = () => undefined;
    const toolCallId = new Promise<string>((resolve) => (requested = resolve));
    const stream = chat(
      onReplicaA(),
      { message: `create ${name}`, context: { namespace: namespace.name } },
      {
        token: admin,
        onEvent: (event: ChatEvent) => {
          if (event.event === 'session') sessionId = event.data.session_id;
          if (event.event === 'tool_request') requested(event.data.id);
        },
      },
    ).catch(() => undefined);
    const id = await toolCallId;
    a.child.kill('SIGKILL');
    await a.exited;
    await stream;

    const refused = await decide(b, id, true);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: expect.any(String), code: 'CONFLICT', details: { id } });
    expect(JSON.stringify(refused.body)).not.toMatch(/postgres:\/\/|stack|at \S+\.ts/);
    const openapi = await b.api('GET', '/api/openapi.json');
    expect(Object.keys(openapi.body.paths['/api/tool/approve'].post.responses)).toContain('409');
    // Refused for good: a later decision, on any replica, never makes it run.
    expect((await decide(c, id, true)).status).not.toBe(200);
    expect(await configMapExists(name)).toBe(false);

    wire.script([{ text: ['I did not create it; shall I try again?'] }]);
    const resumed = await chat(b, { message: 'what happened?', context: { namespace: namespace.name }, session_id: sessionId }, { token: admin });
    expect(resumed.nth('chunk')).toEqual({ content: 'I did not create it; shall I try again?' });
    const sent = JSON.stringify(wire.chatRequests().at(-1)?.body);
    expect(sent).toContain(`create ${name}`);
    expect(sent).toContain('it was not run');
    expect(await configMapExists(name)).toBe(false);
  });
});
