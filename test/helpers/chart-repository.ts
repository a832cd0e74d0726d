import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootDirectory, toolPath } from './paths.js';

/** A chart repository on loopback serving packaged charts of test/fixtures/charts. */
export interface ChartRepository {
  /** http://127.0.0.1:PORT */
  url: string;
  close(): void;
}

/** Packages the named fixture charts and serves them with an index (http, 127.0.0.1). */
export async function serveFixtureCharts(charts: string[]): Promise<ChartRepository> {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-charts-'));
  const helmHome = join(directory, '.helm');
  const environment = { ...process.env, HELM_CACHE_HOME: helmHome, HELM_CONFIG_HOME: helmHome, HELM_DATA_HOME: helmHome };
  for (const chart of charts)
    execFileSync(toolPath('helm'), ['package', join(rootDirectory, 'test/fixtures/charts', chart), '-d', directory], { env: environment });
  const server = createServer((request, response) => {
    const file = (request.url ?? '/').split('?')[0]!.replace(/^\/+/, '');
    if (!/^[\w.-]+$/.test(file)) return void response.writeHead(404).end();
    try {
      response.end(readFileSync(join(directory, file)));
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  execFileSync(toolPath('helm'), ['repo', 'index', directory, '--url', url], { env: environment });
  return {
    url,
    close: () => {
      server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The `demo` fixture chart alone. */
export function serveDemoChartRepository(): Promise<ChartRepository> {
  return serveFixtureCharts(['demo']);
}
