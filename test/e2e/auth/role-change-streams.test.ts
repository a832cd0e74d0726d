import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { chat } from '../../helpers/chat-stream.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startPostgres, type RunningPostgres } from '../../helpers/postgres.js';
import { followEvents, type Followed } from '../../helpers/sse-follow.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Security review four, finding 5: a change of a user's role or roles ends what they opened with the old ones
 * (live lists, terminals, chat turns waiting for an approval), on the replica that made the change at once and on
 * the others at their next look (two replicas on one PostgreSQL, the real test cluster, the scripted LLM).
 */
const namespace = useNamespace('role-change');
const hidden = useNamespace('role-change-hidden');
const own = useNamespace('role-change-ph');
let postgres: RunningPostgres;
let wire: LlmWireServer;
let a: TestService;
let b: TestService;

type LiveData = { items?: { name: string; namespace?: string }[]; item?: { name: string; namespace?: string }; code?: string; details?: { reason?: string } };

async function watch(replica: TestService, token: string, query = ''): Promise<Followed<LiveData>> {
  const response = await fetch(`${replica.url}/api/k8s/pods/watch${query}`, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } });
  expect(response.status).toBe(200);
  const live = followEvents<LiveData>(response);
  await waitFor(() => live.events.some((event) => event.event === 'snapshot'));
  return live;
}

const changeUser = (replica: TestService, username: string, body: Record<string, unknown>): Promise<{ status: number }> =>
  replica.api('PATCH', `/api/admin/users/${username}`, { token: replica.adminToken, body });

const configMapExists = async (name: string): Promise<boolean> =>
  (await tryKubectl(clusterKubeconfig(), ['get', 'configmap', name, '-n', namespace.name])).code === 0;

beforeAll(async () => {
  postgres = await startPostgres();
  wire = await startLlmWireServer();
  const config = {
    database: { url: postgres.url, timeout: '2s' },
    authorization: {
      jwt: { signing_key: randomBytes(32).toString('hex') },
      roles: [{ name: 'no-hidden', resources: ['*'], namespaces: [hidden.name], verbs: ['*' as const], effect: 'deny' as const }],
    },
    llm: {
      provider: 'openai' as const,
      model: 'wire-model',
      base_url: `${wire.url}/v1`,
      api_key: 'sk-role-change',
      max_retries: 0,
      allow_private_base_url: true,
    },
    kubernetes: { namespace: own.name },
  };
  // One after the other: the first migrates the schema.
  a = await startTestService({ config });
  b = await startTestService({ config });
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: talker\nspec:\n  containers:\n  - {name: main, image: busybox}`,
    namespace.name,
  );
  await applyYaml(clusterKubeconfig(), `apiVersion: v1\nkind: Pod\nmetadata: {name: behind}\nspec:\n  containers: [{name: main, image: busybox}]`, hidden.name);
  await waitFor(
    async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', 'talker', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
  );
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  postgres?.remove();
  await wire?.close();
});

describe('a role change ends the streams opened with the old role', () => {
  it('an admin demoted to viewer: their live list ends (role_changed) and their terminal closes with 4401', async () => {
    const demoted = await a.createUser('admin');
    const live = await watch(a, demoted.token, `?namespace=${namespace.name}`);
    const url = `${a.url.replace('http', 'ws')}/api/pods/talker/terminal?namespace=${namespace.name}&shell=/bin/sh`;
    const socket = new WebSocket(url, ['pilothouse.terminal.v1', `bearer.${demoted.token}`]);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    try {
      expect((await changeUser(a, demoted.username, { role: 'viewer' })).status).toBe(200);
      const result = await closed;
      expect(result.code).toBe(4401);
      expect(result.reason).toMatch(/role_changed/);
      await waitFor(() => live.ended());
      expect(live.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'UNAUTHORIZED', details: { reason: 'role_changed' } } });
      // Their session holds: new requests are made with the new role.
      const me = await a.api('GET', '/api/auth/me', { token: demoted.token });
      expect(me.status).toBe(200);
      expect(me.body.role).toBe('viewer');
    } finally {
      socket.close();
      await live.close();
    }
  });

  it('a deny role given on A ends the live list open on B, which showed the now hidden namespace', { timeout: 60_000 }, async () => {
    const viewer = await a.createUser('viewer');
    const other = await a.createUser('viewer');
    const live = await watch(b, viewer.token);
    const kept = await watch(b, other.token);
    try {
      expect(live.events[0]!.data.items!.some((item) => item.namespace === hidden.name)).toBe(true);
      expect((await changeUser(a, viewer.username, { roles: ['no-hidden'] })).status).toBe(200);
      await waitFor(() => live.ended(), 45_000, 100);
      expect(live.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'UNAUTHORIZED', details: { reason: 'role_changed' } } });
      // Another user's live list goes on; the user's new live list leaves the namespace out.
      expect(kept.ended()).toBe(false);
      const again = await watch(b, viewer.token);
      expect(again.events[0]!.data.items!.some((item) => item.namespace === hidden.name)).toBe(false);
      await again.close();
    } finally {
      await Promise.all([live.close(), kept.close()]);
    }
  });

  it('a call waiting for approval when its user is demoted does not run with the old role, even approved on another replica', async () => {
    const demoted = await a.createUser('admin');
    const name = `after-demotion-${randomBytes(3).toString('hex')}`;
    wire.script([{ toolCalls: [{ name: 'kubectl', arguments: { command: `create configmap ${name} -n ${namespace.name}` } }] }, { text: ['Created.'] }]);
    const decisions: number[] = [];
    const run = await chat(
      a,
      { message: 'create it', context: {} },
      {
        token: demoted.token,
        onEvent: async (event) => {
          if (event.event !== 'tool_request') return;
          expect((await changeUser(b, demoted.username, { role: 'viewer' })).status).toBe(200);
          decisions.push((await b.api('POST', '/api/tool/approve', { token: b.adminToken, body: { id: event.data.id, approved: true } })).status);
        },
      },
    );
    expect(run.nth('tool_request', 0)).toMatchObject({ requiresApproval: true });
    expect(await configMapExists(name)).toBe(false);
    // Either the call was refused when it was about to run, or the turn had ended first (the approval then found nothing).
    const executions = run.named('tool_execution');
    const errors = run.named('error') as { details?: { reason?: string } }[];
    expect(executions.every((execution) => execution.status !== 'executed')).toBe(true);
    expect(
      executions.some((execution) => execution.status === 'rejected' && /role_changed/.test(execution.result)) ||
        errors.some((error) => error.details?.reason === 'role_changed'),
    ).toBe(true);
    expect(decisions).toHaveLength(1);
    const id = run.nth('tool_request', 0).id;
    if (executions.length > 0) {
      // The refusal is audited (a reject row of the call, with the reason).
      await expect
        .poll(async () => {
          const rejects = await a.api('GET', '/api/audit?action=reject&limit=200', { token: a.adminToken });
          return rejects.body.items.find((entry: { details: { id?: string } }) => entry.details.id === id);
        })
        .toMatchObject({ user: demoted.username, decision: 'deny', details: { reason: 'role_changed' } });
    }
  });
});
