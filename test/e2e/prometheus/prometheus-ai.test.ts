import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/audit/types.js';
import { chat } from '../../helpers/chat-stream.js';
import { useNamespace } from '../../helpers/cluster.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { samplesUntil, startPrometheus, type RunningPrometheus, type TestSeries } from '../../helpers/prometheus.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * The AI's promql tool (issue 36) through the scripted model: read-only (runs without approval), the caller's
 * namespaces enforced inside the query, the answer a table, a `query` audit row; the system prompt says history
 * exists and carries the time range on screen.
 */
const mine = useNamespace('pa-mine');
const hidden = useNamespace('pa-hidden');
const now = Math.floor(Date.now() / 1000);
let prometheus: RunningPrometheus;
let service: TestService;
let wire: LlmWireServer;
let user: { username: string; token: string };

const memory = (namespace: string, pod: string, bytes: number): TestSeries => ({
  name: 'container_memory_working_set_bytes',
  labels: { namespace, pod, container: 'main' },
  samples: samplesUntil(now, 3600, 30, () => bytes),
});
const promql = (query: string, range?: string) => ({ name: 'promql', arguments: { query, ...(range ? { range } : {}) }, id: 'call_promql' });
type ChatBody = { messages: { role: string; content?: unknown }[] };

beforeAll(async () => {
  prometheus = await startPrometheus({ series: [memory(mine.name, 'api-0', 100), memory(hidden.name, 'vault-0', 999)] });
  wire = await startLlmWireServer();
  service = await startTestService({
    config: {
      llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-promql', max_retries: 0 },
      prometheus: { url: prometheus.url },
      authorization: { roles: [{ name: 'no-hidden', resources: ['*'], namespaces: [hidden.name], verbs: ['*'], effect: 'deny' }] },
    },
  });
  user = await service.createUser('user', { roles: ['no-hidden'] });
}, 120_000);

afterAll(async () => {
  await service?.close();
  await wire?.close();
  await prometheus?.stop();
});

beforeEach(() => wire.reset());

describe('the promql tool of the AI pilot', () => {
  it('runs at once, reads only the namespaces the user may list pods in, and answers a table', async () => {
    wire.script([{ toolCalls: [promql('sum by (namespace, pod) (container_memory_working_set_bytes)', '1h')] }, { text: ['Memory is flat.'] }]);
    const run = await chat(service, { message: 'since when is memory this high?', context: { range: '6h' } }, { token: user.token });
    expect(run.status).toBe(200);
    expect(run.named('tool_request')[0]).toMatchObject({ tool: 'promql', requiresApproval: false });
    const [execution] = run.named('tool_execution');
    expect(execution).toMatchObject({ status: 'executed' });
    expect(execution?.result).toContain('SERIES | LAST | MIN | MAX | POINTS');
    expect(execution?.result).toContain('api-0');
    expect(execution?.result).not.toContain('vault-0');
    expect(execution?.result).not.toContain(hidden.name);
    const prompt = String((wire.chatRequests()[0]?.body as ChatBody).messages[0]?.content);
    expect(prompt).toContain('Usage history exists');
    expect(prompt).toContain('shows the last 6h');
    const audit = await service.api<{ items: AuditEntry[] }>('GET', `/api/audit?user=${user.username}&action=query&limit=200`, { token: service.adminToken });
    expect(audit.body.items.find((entry) => entry.resource === 'prometheus/query')).toMatchObject({
      decision: 'allow',
      cluster: 'home',
      details: { query: 'sum by (namespace, pod) (container_memory_working_set_bytes)', source: 'ai', type: 'range' },
    });
  });

  it('gives the model the refusal of a namespace the user may not read as a tool error it can read', async () => {
    wire.script([{ toolCalls: [promql(`container_memory_working_set_bytes{namespace="${hidden.name}"}`)] }, { text: ['I cannot see it.'] }]);
    const run = await chat(service, { message: 'memory of the hidden namespace' }, { token: user.token });
    const [execution] = run.named('tool_execution');
    expect(execution).toMatchObject({ status: 'error', result: expect.stringContaining('may not read metrics') });
    expect(execution?.result).not.toContain('999');
  });
});
