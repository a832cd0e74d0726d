import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import { waitFor } from './cluster.js';
import { freePort } from './slapd.js';
import { stopProcess } from './child-process.js';

/** Debian's Prometheus and Alertmanager (packages `prometheus`, `prometheus-alertmanager`). */
const prometheusBinary = '/usr/bin/prometheus';
const alertmanagerBinary = '/usr/bin/prometheus-alertmanager';

/** A running Prometheus or Alertmanager on a free 127.0.0.1 port. */
export interface RunningProcess {
  url: string;
  port: number;
  /** What the process printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `binary` with `args(port, directory)`; fails (never skips) unless `/-/ready` answers within 30 s. */
async function startReady(
  name: string,
  binary: string,
  files: Record<string, unknown>,
  args: (port: number, directory: string) => string[],
): Promise<RunningProcess> {
  const directory = mkdtempSync(join(tmpdir(), `pilothouse-${name}-`));
  for (const [file, content] of Object.entries(files)) writeFileSync(join(directory, file), yaml.dump(content));
  const port = await freePort();
  const child = spawn(binary, args(port, directory), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const spawned = new Promise<Error | undefined>((resolve) => child.once('error', resolve));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    await stopProcess(child);
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => {
      const failed = await Promise.race([spawned, Promise.resolve(undefined)]);
      if (failed || child.exitCode !== null) throw new Error(`${name} did not start (${failed?.message ?? `exit ${child.exitCode}`}): ${output}`);
      return (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok === true;
    }, 30_000);
  } catch (error) {
    await stop();
    throw new Error(`${name} at ${url} is not ready: ${error instanceof Error ? error.message : String(error)}; output: ${output.slice(-2000)}`);
  }
  return { url, port, output: () => output, stop };
}

/** Alertmanager with one route to a webhook receiver (`send_resolved`), authenticating with a bearer token. */
export function startAlertmanager(options: { webhookUrl: string; bearerToken: string }): Promise<RunningProcess> {
  const config = {
    route: { receiver: 'pilothouse', group_by: ['alertname'], group_wait: '1s', group_interval: '1s', repeat_interval: '1h' },
    receivers: [
      {
        name: 'pilothouse',
        webhook_configs: [
          { url: options.webhookUrl, send_resolved: true, http_config: { authorization: { type: 'Bearer', credentials: options.bearerToken } } },
        ],
      },
    ],
  };
  return startReady('alertmanager', alertmanagerBinary, { 'alertmanager.yml': config }, (port, directory) => [
    `--config.file=${join(directory, 'alertmanager.yml')}`,
    `--storage.path=${directory}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--cluster.listen-address=',
  ]);
}

/** One alerting rule of the test's Prometheus. */
export interface TestAlertRule {
  alert: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Prometheus evaluating `rules` every second and sending what fires to `alertmanagerUrl`. */
export function startPrometheus(options: { alertmanagerUrl: string; rules: TestAlertRule[] }): Promise<RunningProcess> {
  const config = {
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    rule_files: ['rules.yml'],
    alerting: { alertmanagers: [{ static_configs: [{ targets: [new URL(options.alertmanagerUrl).host] }] }] },
  };
  const rules = { groups: [{ name: 'pilothouse-test', interval: '1s', rules: options.rules.map((rule) => ({ for: '0s', ...rule })) }] };
  return startReady('prometheus', prometheusBinary, { 'prometheus.yml': config, 'rules.yml': rules }, (port, directory) => [
    `--config.file=${join(directory, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(directory, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--rules.alert.resend-delay=1s',
  ]);
}
