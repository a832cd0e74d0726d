import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './slapd.js';
import { stopProcess } from './child-process.js';

/** One series written into the test Prometheus: a metric name, labels, and samples `[Unix seconds, value]`. */
export interface TestSeries {
  name: string;
  labels: Record<string, string>;
  samples: [number, number][];
}

export interface RunningPrometheus {
  url: string;
  port: number;
  /** Runs a query straight on Prometheus (no enforcement): its `data.result`. */
  query(query: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** Kills Prometheus (waits for its exit) and removes its directory. */
  stop(): Promise<void>;
}

export interface StartPrometheusOptions {
  series: TestSeries[];
  /** The port to listen on (default: a free one), when the URL must be known before Prometheus starts. */
  port?: number;
  /** The address to listen on (default 127.0.0.1; the host's own address when the API server's service proxy must reach it). */
  host?: string;
  /** Live scrape targets (`host:port`, path `/metrics`), e.g. Pilothouse's own. */
  scrape?: { target: string; bearerToken?: string }[];
}

const prometheusBinary = '/usr/bin/prometheus';
const promtoolBinary = '/usr/bin/promtool';

const escapeLabel = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** The series in the OpenMetrics text format (`# EOF` at the end), grouped by metric name as the format requires. */
export function openMetricsText(series: TestSeries[]): string {
  const byName = new Map<string, TestSeries[]>();
  for (const one of series) byName.set(one.name, [...(byName.get(one.name) ?? []), one]);
  const lines: string[] = [];
  for (const [name, group] of byName) {
    lines.push(`# TYPE ${name} gauge`);
    for (const one of group) {
      const labels = Object.entries(one.labels)
        .map(([key, value]) => `${key}="${escapeLabel(value)}"`)
        .join(',');
      for (const [time, value] of one.samples) lines.push(`${name}{${labels}} ${value} ${time}`);
    }
  }
  return `${lines.join('\n')}\n# EOF\n`;
}

/** Samples every `stepSeconds` over the last `spanSeconds` up to `now` (seconds), valued by `value(index)`. */
export function samplesUntil(now: number, spanSeconds: number, stepSeconds: number, value: (index: number) => number): [number, number][] {
  const samples: [number, number][] = [];
  for (let index = 0, time = now - spanSeconds; time <= now; index += 1, time += stepSeconds) samples.push([Math.floor(time), value(index)]);
  return samples;
}

function configYaml(scrape: StartPrometheusOptions['scrape'] = []): string {
  const jobs = scrape.map(
    (target, index) =>
      `  - job_name: scrape-${index}\n    scrape_interval: 1s\n    static_configs: [{targets: ['${target.target}']}]\n` +
      (target.bearerToken ? `    authorization: {credentials: '${target.bearerToken}'}\n` : ''),
  );
  return `global: {scrape_interval: 1s, evaluation_interval: 1s}\n${jobs.length ? `scrape_configs:\n${jobs.join('')}` : ''}`;
}

/** Polls `/-/ready` until Prometheus answers (30 s); fails at once when it exits. No vitest import: benches use it too. */
async function untilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${output().slice(-2000)}`);
    if ((await fetch(`${url}/-/ready`).catch(() => undefined))?.ok === true) return;
    if (Date.now() > deadline) throw new Error(`prometheus did not get ready at ${url}: ${output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A real Prometheus (Debian's package) with `series` written as TSDB blocks by `promtool tsdb
 * create-blocks-from openmetrics`, listening on a free 127.0.0.1 port. Throws (never skips) when promtool or
 * Prometheus cannot run.
 */
export async function startPrometheus(options: StartPrometheusOptions): Promise<RunningPrometheus> {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-prometheus-'));
  const dataFile = join(directory, 'series.om');
  writeFileSync(dataFile, openMetricsText(options.series));
  writeFileSync(join(directory, 'prometheus.yml'), configYaml(options.scrape));
  const created = spawnSync(promtoolBinary, ['tsdb', 'create-blocks-from', 'openmetrics', dataFile, join(directory, 'tsdb')], { encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`promtool could not write the TSDB blocks (${created.status}): ${created.stderr}${created.error?.message ?? ''}`);
  const port = options.port ?? (await freePort());
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host}:${port}`;
  const child = spawn(
    prometheusBinary,
    [
      `--config.file=${join(directory, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(directory, 'tsdb')}`,
      '--storage.tsdb.retention.time=30d',
      `--web.listen-address=${host}:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async (): Promise<void> => {
    await stopProcess(child);
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    await untilReady(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  const query: RunningPrometheus['query'] = async (text) => {
    const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: text })}`);
    const body = (await response.json()) as { data?: { result: never[] }; error?: string };
    if (!body.data) throw new Error(`prometheus refused ${text}: ${body.error}`);
    return body.data.result;
  };
  return { url, port, query, stop };
}
