// How to run: `make bench` (needs Debian's prometheus and promtool, as `make test`). Figures of issue 36:
// 1. the query rewrite (src/prometheus/enforce-query.ts): p50/p99 per query of the hostile corpus (goal ≤ 1 ms);
// 2. a pod's 24 h history through Pilothouse's history code against the same range queries sent straight to
//    Prometheus (goal ≤ 1.2×), on a real Prometheus with a day of 30 s samples;
// 3. the memory of the in-memory fallback at 10,000 pods (an hour at 30 s).
// Never part of the tests.
import { createLogger } from '../src/log.js';
import { enforceQuery } from '../src/prometheus/enforce-query.js';
import { historySeriesOf, renderHistoryQuery } from '../src/prometheus/history-queries.js';
import { historyRequestOf } from '../src/prometheus/history-request.js';
import { prometheusHistory } from '../src/prometheus/history-service.js';
import { hostileQueries } from '../src/prometheus/hostile-queries.js';
import type { MetricsView } from '../src/prometheus/metrics-view.js';
import { PrometheusSource } from '../src/prometheus/prometheus-source.js';
import { UsageMemory, type UsageSample } from '../src/prometheus/usage-memory.js';
import { prometheusSchema } from '../src/config/prometheus-schema.js';
import type { RestClient } from '../src/kube/rest-client.js';
import { samplesUntil, startPrometheus, type TestSeries } from '../test/helpers/prometheus.js';

const view: MetricsView = { unrestricted: false, namespaces: ['team-a', 'team-b', 'team-c'], nodes: false };
const percentile = (sorted: number[], fraction: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
const milliseconds = (value: number): string => `${value.toFixed(3)} ms`;

/** One rewrite; refused queries cost the same parse. */
function enforceQuietly(query: string): void {
  try {
    enforceQuery(query, view);
  } catch {
    // refused: measured all the same
  }
}

function rewriteFigures(): void {
  const rounds = Number(process.env.BENCH_REWRITE_ROUNDS ?? 500);
  const times: number[] = [];
  // Warm-up (JIT, the grammar's tables) before anything is measured.
  for (let round = 0; round < 50; round += 1)
    for (const template of hostileQueries) enforceQuietly(template.replaceAll('{{own}}', 'team-a').replaceAll('{{other}}', 'team-x'));
  for (const template of hostileQueries) {
    const query = template.replaceAll('{{own}}', 'team-a').replaceAll('{{other}}', 'team-x');
    for (let round = 0; round < rounds; round += 1) {
      const started = performance.now();
      enforceQuietly(query);
      times.push(performance.now() - started);
    }
  }
  times.sort((left, right) => left - right);
  console.log(
    `query rewrite (${hostileQueries.length} queries × ${rounds}): p50 ${milliseconds(percentile(times, 0.5))}, p99 ${milliseconds(percentile(times, 0.99))} (goal ≤ 1 ms)`,
  );
}

async function historyFigures(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const labels = { namespace: 'team-a', pod: 'api-0', container: 'main' };
  const day = (value: (index: number) => number): [number, number][] => samplesUntil(now, 86_400, 30, value);
  const series: TestSeries[] = [
    { name: 'container_cpu_usage_seconds_total', labels, samples: day((index) => index * 15) },
    { name: 'container_memory_working_set_bytes', labels, samples: day(() => 2e8) },
    { name: 'container_network_receive_bytes_total', labels: { namespace: 'team-a', pod: 'api-0' }, samples: day((index) => index * 3e4) },
    { name: 'container_network_transmit_bytes_total', labels: { namespace: 'team-a', pod: 'api-0' }, samples: day((index) => index * 1e4) },
    { name: 'kube_pod_container_status_restarts_total', labels, samples: day(() => 2) },
  ];
  const prometheus = await startPrometheus({ series });
  try {
    const config = prometheusSchema.parse({ url: prometheus.url });
    const source = new PrometheusSource({ config, ownNamespace: 'pilothouse', rest: (): RestClient => undefined as never, clock: Date.now });
    const request = historyRequestOf({ kind: 'pod', namespace: 'team-a', name: 'api-0', range: '24h' }, now * 1000);
    const direct = historySeriesOf('pod', {}).map((definition) => renderHistoryQuery(definition.query, request));
    const rounds = Number(process.env.BENCH_HISTORY_ROUNDS ?? 50);
    const ours: number[] = [];
    const straight: number[] = [];
    const straightToPrometheus = (): Promise<unknown[]> =>
      Promise.all(
        direct.map(async (query) => {
          const parameters = new URLSearchParams({ query, start: String(request.start), end: String(request.end), step: String(request.step) });
          return (await fetch(`${prometheus.url}/api/v1/query_range?${parameters}`)).json();
        }),
      );
    await Promise.all([prometheusHistory(source, view, request), straightToPrometheus()]);
    // Alternating which goes first, so neither always meets a warmer Prometheus.
    for (let round = 0; round < rounds; round += 1) {
      const runs: [number[], () => Promise<unknown>][] = [
        [ours, () => prometheusHistory(source, view, request)],
        [straight, straightToPrometheus],
      ];
      for (const [times, run] of round % 2 === 0 ? runs : runs.reverse()) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
    }
    const [oursSorted, straightSorted] = [ours.sort((a, b) => a - b), straight.sort((a, b) => a - b)];
    const ratio = percentile(oursSorted, 0.5) / percentile(straightSorted, 0.5);
    console.log(
      `24 h pod history (${rounds} rounds): Pilothouse p50 ${milliseconds(percentile(oursSorted, 0.5))}, straight to Prometheus p50 ${milliseconds(percentile(straightSorted, 0.5))}: ${ratio.toFixed(2)}× (goal ≤ 1.2×)`,
    );
  } finally {
    await prometheus.stop();
  }
}

function memoryFigures(): void {
  const pods = 10_000;
  const sample: UsageSample = {
    pods: Array.from({ length: pods }, (_, index) => ({ namespace: `team-${index % 100}`, name: `pod-${index}`, cpu: 0.1, memory: 1e8 })),
    nodes: Array.from({ length: 100 }, (_, index) => ({ name: `node-${index}`, cpu: 2, memory: 8e9 })),
  };
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const memory = new UsageMemory({ read: async () => sample, windowMs: 3_600_000, intervalMs: 30_000, clock: Date.now, logger: createLogger('silent') });
  for (let slot = 0; slot < 121; slot += 1) memory.record(slot * 30_000, sample);
  gc?.();
  const after = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  console.log(
    `in-memory fallback at ${pods} pods, 1 h at 30 s: ${((after - before) / 1024 / 1024).toFixed(1)} MiB for ${memory.size} series${gc ? '' : ' (run with --expose-gc for a steadier figure)'}`,
  );
}

rewriteFigures();
await historyFigures();
memoryFigures();
