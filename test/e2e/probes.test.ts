import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

// The chart's probes: liveness from the process alone, readiness from the API server and the store,
// both fast while the LLM provider hangs (it accepts connections and never answers).
let service: TestService;
let hanging: Server;

beforeAll(async () => {
  hanging = createServer(() => undefined);
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

async function timed(path: string): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const response = await service.api('GET', path);
  return { status: response.status, body: response.body, ms: performance.now() - started };
}

describe('probes', () => {
  it('answer at once, without a token, while the LLM hangs', async () => {
    const live = await timed('/api/livez');
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(live.ms).toBeLessThan(500);
    const ready = await timed('/api/readyz');
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready', kubernetes: 'connected', store: 'ok' } });
    expect(ready.ms).toBeLessThan(2500);
    // The full health report waits on the LLM check (its 5 s limit): the reason probes must not use it.
    const health = await timed('/api/health');
    expect(health.body).toMatchObject({ llm: 'unavailable' });
    expect(health.ms).toBeGreaterThan(ready.ms);
  }, 30_000);
});
