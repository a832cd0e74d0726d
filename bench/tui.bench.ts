// How to run: `make bench` (or BENCH_TUI_PODS=1000 to try a smaller size; BENCH_KUBECONFIG for another
// cluster). Creates KWOK pods on the test cluster (10 namespaces, bounded concurrency), starts a Pilothouse
// (child process) and `pilothouse tui -A` against it in a 120×40 tmux pane, and reports, read from the pane
// with capture-pane: the time from start to the first screen of pods, next to the same start with an empty
// namespace and the server's own answer (the watch snapshot), and keypress-to-redraw times for `j` and the
// `/` filter. Tears everything down. Never part of the tests; no test asserts these times.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClients, loadKubeConfig } from '../src/kube/clients.js';
import { TmuxPane } from '../test/helpers/tmux.js';
import { inParallel, startPilothouse, stopPilothouse } from './helpers.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const podCount = Number(process.env.BENCH_TUI_PODS ?? 10_000);
const namespaces = Array.from({ length: 10 }, (_, index) => `tui-bench-${process.pid}-${index}`);
const emptyNamespace = `tui-bench-${process.pid}-empty`;
const rest = new KubeClients(loadKubeConfig({ kubeconfigPath: kubeconfig }), { kubeconfigPath: kubeconfig }).forIdentity().rest;
const program = join(root, 'bin', 'pilothouse');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const p95 = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))] ?? NaN;

async function createPods(): Promise<void> {
  for (const name of [...namespaces, emptyNamespace]) await rest.json('POST', '/api/v1/namespaces', { body: { metadata: { name } } });
  await inParallel(podCount, 16, async (index) => {
    await rest.json('POST', `/api/v1/namespaces/${namespaces[index % namespaces.length]}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `pod-${index}`, labels: { app: `app-${index % 50}`, bench: 'tui' } },
        spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }] },
      },
    });
  });
}

/** The server's answer as the TUI gets it: the watch stream of all pods until its `snapshot` event has arrived. */
async function snapshotMs(url: string): Promise<number> {
  const controller = new AbortController();
  const started = performance.now();
  const response = await fetch(`${url}/api/k8s/pods/watch`, { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    const at = buffer.indexOf('event: snapshot');
    if (at >= 0 && buffer.indexOf('\n\n', at) >= 0) break;
  }
  const ms = performance.now() - started;
  controller.abort();
  return ms;
}

/** Polls the pane (capture-pane) until `test` holds; returns the ms since `since`. */
async function until(pane: TmuxPane, test: (screen: string) => boolean, since: number, timeoutMs = 60_000): Promise<number> {
  while (performance.now() - since < timeoutMs) {
    if (test(pane.screen())) return performance.now() - since;
    await sleep(5);
  }
  throw new Error(`timed out; last screen:\n${pane.screen()}`);
}

/** Remote mode against the benchmark's Pilothouse (--no-auth: any token passes; a token file skips the login prompt). */
function startTui(url: string, scope: string[]): { pane: TmuxPane; started: number } {
  const home = mkdtempSync(join(tmpdir(), 'ph-tui-bench-home-'));
  writeFileSync(join(home, 'token'), 'no-auth');
  const started = performance.now();
  const argv = [process.execPath, program, 'tui', '--url', url, '--token-file', join(home, 'token'), ...scope, '--lang', 'en'];
  const pane = TmuxPane.start(argv, { HOME: home });
  return { pane, started };
}

/** Start to the first screen of rows (the title shows the row count). */
async function firstScreen(url: string, scope: string[], title: RegExp): Promise<{ ms: number; pane: TmuxPane }> {
  const { pane, started } = startTui(url, scope);
  const ms = await until(pane, (screen) => title.test(screen), started);
  return { ms, pane };
}

/** What the program wrote to the pane since byte `from` (tmux pipe-pane into `file`). */
function written(file: string, from: number): string {
  const size = statSync(file).size;
  if (size <= from) return '';
  const buffer = Buffer.alloc(size - from);
  const descriptor = openSync(file, 'r');
  readSync(descriptor, buffer, 0, buffer.length, from);
  closeSync(descriptor);
  return buffer.toString('utf8');
}

/** Keypress-to-redraw: ms from sending the key until the program has written a frame for which `drawn` holds. */
async function redrawMs(pane: TmuxPane, file: string, send: () => void, drawn: (output: string) => boolean): Promise<number> {
  const from = statSync(file).size;
  const started = performance.now();
  send();
  while (performance.now() - started < 10_000) {
    if (drawn(written(file, from))) return performance.now() - started;
    await sleep(1);
  }
  throw new Error(`no redraw; last screen:\n${pane.screen()}`);
}

/** The row count in the table's title (`pods(all)[10000]`). */
const shownCount = (screen: string): number => Number(/pods\([^)]*\)\[(\d+)\]/.exec(screen)?.[1] ?? NaN);

/** What one `tmux send-keys` costs by itself (a client process): part of every keypress time below. */
function sendCostMs(pane: TmuxPane): number {
  const costs: number[] = [];
  for (let round = 0; round < 10; round += 1) {
    const started = performance.now();
    pane.keys('');
    costs.push(performance.now() - started);
  }
  return median(costs);
}

async function measureKeys(pane: TmuxPane): Promise<{ down: number[]; filter: number[]; send: number }> {
  const file = join(mkdtempSync(join(tmpdir(), 'ph-tui-bench-out-')), 'pane.out');
  writeFileSync(file, '');
  pane.pipeOutput(file);
  const send = sendCostMs(pane);
  const down: number[] = [];
  for (let press = 0; press < 30; press += 1) {
    down.push(
      await redrawMs(
        pane,
        file,
        () => pane.keys('j'),
        (output) => output.length > 0,
      ),
    );
    await sleep(60);
  }
  const filter: number[] = [];
  for (let round = 0; round < 10; round += 1) {
    pane.keys('/');
    await sleep(300);
    // The text filter narrows the rows as it is typed: from the keys to the narrowed count on the screen
    // (capture-pane: incremental redraws write only the changed cells, so the output alone does not show it).
    const started = performance.now();
    pane.type(`pod-${100 + round}`);
    filter.push(await until(pane, (screen) => shownCount(screen) < podCount, started, 10_000));
    pane.keys('Escape');
    await until(pane, (screen) => new RegExp(`\\[${podCount}\\]`).test(screen), performance.now());
    await sleep(200);
  }
  return { down, filter, send };
}

function table(rows: [string, string, string][]): string {
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')).join('\n');
}

async function main(): Promise<void> {
  if (spawnSync('tmux', ['-V']).status !== 0) throw new Error('tmux is missing (apt-get install tmux)');
  process.stdout.write(`creating ${podCount} KWOK pods in ${namespaces.length} namespaces…\n`);
  await createPods();
  const service = await startPilothouse(kubeconfig, ['--no-auth']);
  const panes: TmuxPane[] = [];
  try {
    const answers: number[] = [];
    for (let round = 0; round < 4; round += 1) answers.push(await snapshotMs(service.url));
    const empty: number[] = [];
    const full: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const emptyRun = await firstScreen(service.url, ['-n', emptyNamespace], new RegExp(`pods\\(${emptyNamespace}\\)\\[0\\]`));
      emptyRun.pane.stop();
      empty.push(emptyRun.ms);
      const fullRun = await firstScreen(service.url, ['-A'], new RegExp(`pods\\(.*\\)\\[${podCount}\\]`));
      full.push(fullRun.ms);
      if (round < 2) fullRun.pane.stop();
      else panes.push(fullRun.pane);
    }
    await sleep(500);
    const keys = await measureKeys(panes[0]!);
    const fixed = median(empty);
    const answer = median(answers.slice(1));
    const rows: [string, string, string][] = [
      ['measure', 'median ms', 'p95 ms / note'],
      [`server answer: watch snapshot of ${podCount} pods (warm)`, answer.toFixed(0), `cold ${answers[0]!.toFixed(0)}`],
      ['tui start → first screen, empty namespace', fixed.toFixed(0), 'process, sign-in, first frame'],
      [`tui start → first screen of ${podCount} pods (-A)`, median(full).toFixed(0), full.map((ms) => ms.toFixed(0)).join(', ')],
      [
        `${podCount} pods over an empty namespace`,
        (median(full) - fixed).toFixed(0),
        'the server answer, transfer, parse and draw; goal: draw < 1000 after the answer',
      ],
      ['keypress j → redraw', median(keys.down).toFixed(1), `${p95(keys.down).toFixed(1)} (goal < 50)`],
      ['/ filter typed → narrowed table drawn', median(keys.filter).toFixed(1), `${p95(keys.filter).toFixed(1)} (goal < 50)`],
      ['(of which tmux send-keys itself)', keys.send.toFixed(1), 'a tmux client process per key'],
      ['keypress j → redraw, less send-keys', (median(keys.down) - keys.send).toFixed(1), 'the TUI’s own share'],
    ];
    process.stdout.write(
      `\n${table(rows)}\n(first screens and the filter: capture-pane polled every ~5 ms; j: the pane's output piped to a file (pipe-pane), polled every ~1 ms)\n`,
    );
  } finally {
    for (const pane of panes) pane.stop();
    await stopPilothouse(service);
    for (const name of [...namespaces, emptyNamespace]) await rest.json('DELETE', `/api/v1/namespaces/${name}`).catch(() => undefined);
  }
}

await main();
