import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/cluster.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Issue 37: at most investigations.concurrency run at once; the others wait Pending and say why.
let service: TestService;
let wire: LlmWireServer;

beforeAll(async () => {
  wire = await startLlmWireServer();
  const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-investigation-limits', max_retries: 0, timeout: '10s' };
  service = await startTestService({ config: { llm: llm as never, investigations: { concurrency: 1 } } as never });
});

afterAll(async () => {
  await Promise.all([service?.close(), wire?.close()]);
});

const phaseOf = async (name: string): Promise<any> => (await service.api('GET', `/api/investigations/${name}`, { token: service.adminToken })).body;

describe('investigations.concurrency', () => {
  it('keeps a second investigation Pending while the first runs, then runs it', async () => {
    // The first run's model call stays silent until the LLM timeout (10 s) fails it; the second waits for the slot.
    wire.script([{ text: ['thinking'], stallAfterChunks: 0 }, { toolCalls: [{ name: 'conclude', arguments: { summary: 'second done' } }] }]);
    const ask = async (question: string): Promise<string> => {
      const created = await service.api('POST', '/api/investigations', { token: service.adminToken, body: { question } });
      expect(created.status).toBe(201);
      return created.body.metadata.name;
    };
    const first = await ask('first question');
    await waitFor(async () => (await phaseOf(first)).status?.phase === 'Running');
    const second = await ask('second question');
    await waitFor(async () => (await phaseOf(second)).status?.phase === 'Pending');
    expect((await phaseOf(second)).status.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'Started', status: 'False', reason: 'WaitingForSlot' })]),
    );
    expect((await phaseOf(first)).status.phase).toBe('Running');
    await waitFor(async () => (await phaseOf(first)).status?.phase === 'Failed', 60_000);
    expect((await phaseOf(first)).status.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Failed', reason: 'RunFailed' })]));
    await waitFor(async () => (await phaseOf(second)).status?.phase === 'Concluded', 60_000);
    expect((await phaseOf(second)).status.summary).toBe('second done');
  }, 180_000);
});
