// How to run: `make bench` (needs Debian's PostgreSQL and the test cluster). The time bounds the tests used to
// assert on the wall clock (issue 34: tests assert behaviour, benches measure time). Each line prints the time
// measured and the bound users rely on; a time over its bound is marked OVER. Never part of the tests.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseYamlDocument } from '../src/http/pipeline/yaml-body.js';
import { createLogger } from '../src/log.js';
import { PostgresClient } from '../src/store/postgres.js';
import { runProcess } from '../src/tools/builtin/process-runner.js';
import { yamlAliasBomb } from '../test/fixtures/yaml-alias-bomb.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { startPilothouse, stopPilothouse } from './helpers.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const logger = createLogger('silent');

function report(label: string, milliseconds: number, boundMs: number): void {
  console.log(`${label}: ${milliseconds.toFixed(1)} ms (bound ${boundMs} ms)${milliseconds > boundMs ? ' OVER' : ''}`);
}

async function timed(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

// A YAML alias bomb is refused by its expanded size before it expands (src/http/pipeline/yaml-body.test.ts).
report(
  'YAML alias bomb refused',
  await timed(() => {
    try {
      parseYamlDocument(yamlAliasBomb, 1024 * 1024);
    } catch {
      // refused, as the test asserts
    }
  }),
  500,
);

// A program without a session of its own is killed on timeout (src/tools/builtin/process-runner.test.ts, kubectl-tool.test.ts).
const environment = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
report(
  'sleep 30 killed at a 200 ms timeout',
  await timed(() => runProcess({ file: 'sleep', args: ['30'], environment, outputLimit: 4096, ownSession: false, timeoutMs: 200 })),
  10_000,
);

// PostgreSQL gone: a store call answers UNAVAILABLE within its timeout (src/store/stores.test.ts).
const postgres = await startPostgres();
const client = new PostgresClient({ url: postgres.url, poolSize: 2, timeoutMs: 1_000, logger });
await client.query('SELECT 1');
postgres.stop();
report('store call while PostgreSQL is stopped', await timed(() => client.query('SELECT 1').catch(() => undefined)), 5_000);
await client.close();
postgres.remove();

// Probes answer while the LLM hangs (test/e2e/http/probes.test.ts).
const hanging = createServer(() => undefined);
await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
const llmPort = (hanging.address() as { port: number }).port;
const service = await startPilothouse(kubeconfig, ['--no-auth'], {
  fromSources: true,
  readyPath: '/api/livez',
  config: `llm: {provider: openai, model: m, api_key: sk-bench, base_url: "http://127.0.0.1:${llmPort}/v1", allow_private_base_url: true, max_retries: 0}\n`,
});
try {
  report('GET /api/livez while the LLM hangs', await timed(() => fetch(`${service.url}/api/livez`).then((response) => response.text())), 500);
  report('GET /api/readyz while the LLM hangs', await timed(() => fetch(`${service.url}/api/readyz`).then((response) => response.text())), 2_500);
} finally {
  await stopPilothouse(service);
  hanging.close();
}
