import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { chat } from '../../helpers/chat-stream.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Whole chat turns through the real Anthropic SDK against the scripted Messages stream: usage rows,
// prices, /metrics, GET /api/usage and the daily budgets on an injected clock.
const namespace = useNamespace('usage');
const clock = { now: Date.parse('2026-03-01T10:00:00Z') };
let service: TestService;
let wire: LlmWireServer;

const prices = { 'claude-wire': { input: 3, output: 15, cached_input: 0.3 } };
const metricValue = (text: string, line: string): number =>
  Number(
    text
      .split('\n')
      .find((row) => row.startsWith(`${line} `))
      ?.split(' ')[1] ?? 0,
  );

beforeAll(async () => {
  wire = await startLlmWireServer();
  service = await startTestService({
    clock: () => clock.now,
    config: {
      llm: {
        provider: 'anthropic',
        model: 'claude-wire',
        base_url: wire.url,
        api_key: 'sk-ant-usage-test',
        max_retries: 0,
        prices,
        budgets: { per_user_daily_tokens: 5_000 },
      },
    },
  });
  await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'usage-visible', '-n', namespace.name, '--from-literal=a=b']);
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

beforeEach(() => wire.reset());

describe('chat usage over Anthropic', () => {
  it('runs a tool-use turn through the Messages API and stores each call’s tokens and cost with the answer', async () => {
    const user = await service.createUser('user');
    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: `get configmaps -n ${namespace.name}` } }], usage: { input: 1_000, output: 50, cached: 800 } },
      { text: ['One configmap: ', 'usage-visible.'], usage: { input: 1_200, output: 20, cached: 1_000 } },
    ]);
    const run = await chat(service, { message: 'Which configmaps?', context: { namespace: namespace.name } }, { token: user.token });
    expect(run.events.map((event) => event.event)).toEqual(['session', 'tool_request', 'tool_execution', 'chunk', 'chunk', 'stream_end']);
    expect(run.nth('tool_execution').result).toContain('usage-visible');
    const followUp = wire.chatRequests()[1]?.body as { messages: { role: string; content: { type: string; content?: string }[] }[] };
    expect(followUp.messages.at(-1)?.content[0]).toMatchObject({ type: 'tool_result' });
    expect(followUp.messages.at(-1)?.content[0]?.content).toContain('usage-visible');
    // (200 × 3 + 800 × 0.3 + 50 × 15) / 1e6 and (200 × 3 + 1000 × 0.3 + 20 × 15) / 1e6
    const firstCost = 0.00159;
    const secondCost = 0.0012;
    expect(run.nth('stream_end').usage).toMatchObject({ inputTokens: 2_200, outputTokens: 70, cachedInputTokens: 1_800 });
    expect(run.nth('stream_end').usage?.cost).toBeCloseTo(firstCost + secondCost, 9);
    const sessionId = run.nth('session').session_id;
    const history = await service.api('GET', `/api/chat/history?session_id=${sessionId}`, { token: user.token });
    const answers = history.body.messages.filter((message: { role: string }) => message.role === 'assistant');
    expect(answers.map((answer: { usage: unknown }) => answer.usage)).toEqual([
      { provider: 'anthropic', model: 'claude-wire', inputTokens: 1_000, outputTokens: 50, cachedInputTokens: 800, cost: expect.closeTo(firstCost, 9) },
      { provider: 'anthropic', model: 'claude-wire', inputTokens: 1_200, outputTokens: 20, cachedInputTokens: 1_000, cost: expect.closeTo(secondCost, 9) },
    ]);

    const mine = await service.api('GET', '/api/usage', { token: user.token });
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([
      expect.objectContaining({
        day: '2026-03-01',
        username: user.username,
        cluster: 'home',
        provider: 'anthropic',
        model: 'claude-wire',
        calls: 2,
        inputTokens: 2_200,
      }),
    ]);
    expect(mine.body.totals).toMatchObject({ calls: 2, inputTokens: 2_200, outputTokens: 70, cachedInputTokens: 1_800 });
    const metrics = await service.api<string>('GET', '/metrics', { token: service.adminToken });
    expect(metricValue(metrics.text, 'pilothouse_llm_tokens_total{provider="anthropic",model="claude-wire",kind="cached_input"}')).toBeGreaterThanOrEqual(
      1_800,
    );
    expect(metricValue(metrics.text, 'pilothouse_llm_cost_total{provider="anthropic",model="claude-wire"}')).toBeGreaterThan(0);
  });

  it('shows admins every user’s usage with filters, and others only their own', async () => {
    const ann = await service.createUser('user');
    const bob = await service.createUser('viewer');
    for (const caller of [ann, bob]) {
      wire.script([{ text: ['hi'], usage: { input: 100, output: 10 } }]);
      expect((await chat(service, { message: 'hello', context: {} }, { token: caller.token })).nth('stream_end').complete).toBe(true);
    }
    const all = await service.api('GET', '/api/usage?from=2026-03-01&to=2026-03-01', { token: service.adminToken });
    const users = all.body.items.map((item: { username: string }) => item.username);
    expect(users).toEqual(expect.arrayContaining([ann.username, bob.username]));
    const onlyAnn = await service.api('GET', `/api/usage?user=${ann.username}`, { token: service.adminToken });
    expect(onlyAnn.body.totals).toMatchObject({ calls: 1, inputTokens: 100, outputTokens: 10, cost: expect.closeTo((100 * 3 + 10 * 15) / 1e6, 9) });
    const bobs = await service.api('GET', '/api/usage', { token: bob.token });
    expect(bobs.body.items.map((item: { username: string }) => item.username)).toEqual([bob.username]);
    const refused = await service.api('GET', `/api/usage?user=${ann.username}`, { token: bob.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN' });
    const invalid = await service.api('GET', '/api/usage?from=2026-13-01', { token: bob.token });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('daily budgets', () => {
  it('refuses the turn after the budget was reached (429, audited) without calling the model, and allows it the next UTC day', async () => {
    const user = await service.createUser('user');
    wire.script([{ text: ['a long answer'], usage: { input: 4_000, output: 1_500 } }]);
    expect((await chat(service, { message: 'first', context: {} }, { token: user.token })).nth('stream_end').complete).toBe(true);
    wire.script([{ text: ['never sent'] }]);
    const refused = await chat(service, { message: 'second', context: {} }, { token: user.token });
    expect(refused.status).toBe(429);
    expect(refused.error).toEqual({
      error: expect.stringContaining('per_user_daily_tokens'),
      code: 'BUDGET_EXCEEDED',
      details: { budget: 'per_user_daily_tokens', used: 5_500, limit: 5_000, resetsAt: '2026-03-02T00:00:00.000Z' },
    });
    expect(wire.chatRequests()).toHaveLength(1);
    const audit = await service.api('GET', `/api/audit?action=query&user=${user.username}&limit=10`, { token: service.adminToken });
    expect(audit.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ decision: 'deny', details: expect.objectContaining({ budget: 'per_user_daily_tokens', used: 5_500 }) }),
      ]),
    );

    clock.now = Date.parse('2026-03-02T00:00:01Z');
    service.adminToken = await service.login();
    const token = await service.login(user.username, user.password);
    const nextDay = await chat(service, { message: 'second', context: {} }, { token });
    expect(nextDay.status).toBe(200);
    expect(nextDay.named('chunk').map((chunk) => chunk.content)).toEqual(['never sent']);
  });

  it('ends a turn whose budget ran out between model calls with an SSE error event carrying the same body', async () => {
    const user = await service.createUser('user');
    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: `get configmaps -n ${namespace.name}` } }], usage: { input: 5_000, output: 100 } },
      { text: ['never sent'] },
    ]);
    const run = await chat(service, { message: 'look', context: { namespace: namespace.name } }, { token: user.token });
    expect(run.status).toBe(200);
    expect(run.nth('tool_execution').status).toBe('executed');
    expect(run.nth('error')).toEqual({
      error: expect.stringContaining('per_user_daily_tokens'),
      code: 'BUDGET_EXCEEDED',
      details: { budget: 'per_user_daily_tokens', used: 5_100, limit: 5_000, resetsAt: expect.stringMatching(/T00:00:00\.000Z$/) },
    });
    expect(run.nth('stream_end')).toMatchObject({ complete: false, reason: 'error', usage: { inputTokens: 5_000, outputTokens: 100 } });
    expect(wire.chatRequests()).toHaveLength(1);
  });
});

describe('PUT /api/settings/llm', () => {
  it('switches to another Anthropic model in prompted mode, used from the next turn', async () => {
    const changed = await service.api('PUT', '/api/settings/llm', {
      token: service.adminToken,
      body: { provider: 'anthropic', model: 'claude-other', tool_calling: 'prompted' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ provider: 'anthropic', model: 'claude-other', tool_calling: 'prompted', apiKeySet: true });
    expect(changed.body).not.toHaveProperty('prices');
    const refused = await service.api('PUT', '/api/settings/llm', {
      token: service.adminToken,
      body: { provider: 'anthropic', model: 'claude-other', tool_calling: 'sometimes' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    const user = await service.createUser('user');
    wire.script([{ text: ['Plain answer.'], usage: { input: 10, output: 2 } }]);
    const run = await chat(service, { message: 'hi', context: {} }, { token: user.token });
    expect(run.nth('stream_end').complete).toBe(true);
    const [request] = wire.chatRequests();
    expect(request?.path).toBe('/v1/messages');
    expect(request?.body).toMatchObject({ model: 'claude-other' });
    expect(request?.body).not.toHaveProperty('tools');
    expect(JSON.stringify((request?.body as { system: unknown }).system)).toContain('```tool_call');
  });
});
