import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.js';

// The chart's probes: liveness from the process alone, readiness from the API server and the store,
// both fast while the LLM provider hangs (it accepts connections and never answers).
let service: TestService;
let hanging: Server;
/** Connections the LLM provider accepted (and never answered). */
let llmConnections = 0;

beforeAll(async () => {
  hanging = createServer(() => void (llmConnections += 1));
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  const port = (hanging.address() as { port: number }).port;
  service = await startTestService({
    config: {
      llm: { provider: 'openai', model: 'm', api_key: 'sk-probe-test', base_url: `http://127.0.0.1:${port}/v1`, allow_private_base_url: true, max_retries: 0 },
    },
  });
});

afterAll(async () => {
  await service?.close();
  hanging?.close();
});

// How fast they answer: bench/test-bounds.bench.ts.
describe('probes', () => {
  it('answer without a token while the LLM hangs, never asking it', async () => {
    const before = llmConnections;
    const live = await service.api('GET', '/api/livez');
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await service.api('GET', '/api/readyz');
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready', kubernetes: 'connected', store: 'ok' } });
    expect(llmConnections).toBe(before);
    // The full health report asks the LLM and waits on its check (its 5 s limit): the reason probes must not use it.
    const health = await service.api('GET', '/api/health');
    expect(health.body).toMatchObject({ llm: 'unavailable' });
    expect(llmConnections).toBeGreaterThan(before);
  }, 30_000);
});
