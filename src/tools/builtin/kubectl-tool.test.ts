import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/cluster.js';
import { findBinary } from '../binaries.js';
import type { ToolClusterSession, ToolContext } from '../types.js';
import { createKubectlTool, type KubectlToolOptions } from './kubectl-tool.js';

// The real kubectl binary; the "cluster" is a plain loopback HTTP server that records what kubectl sends.
let folder: string;
let kubeconfigPath: string;
/** Stands in for the policy proxy session: only its kubeconfig path matters to the tool (the socket is the bash sandbox's). */
const session = (): ToolClusterSession => ({ kubeconfigPath, socket: { path: '', port: 0 }, refusals: () => [], close: async () => undefined });
const context = (): ToolContext => ({ principal: { username: 'tester', role: 'admin', roles: [] }, proxySession: session() });
let server: Server;
const seenHeaders: IncomingHttpHeaders[] = [];
const seenPaths: string[] = [];

function kubeconfig(port: number): string {
  const cluster = (name: string, url: string) => `- name: ${name}\n  cluster:\n    server: ${url}\n`;
  const contextEntry = (name: string) => `- name: ${name}\n  context:\n    cluster: ${name}\n    user: tester\n`;
  return [
    'apiVersion: v1',
    'kind: Config',
    'current-context: first',
    'clusters:',
    cluster('first', `http://127.0.0.1:${port}`) + cluster('second', `http://127.0.0.1:${port}`).trimEnd(),
    'contexts:',
    contextEntry('first') + contextEntry('second').trimEnd(),
    'users:',
    '- name: tester\n  user:\n    token: test-token',
    '',
  ].join('\n');
}

/** One promise per /hang request, resolved when its connection closes. */
const hangingClosed: Promise<void>[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seenHeaders.push(request.headers);
    seenPaths.push(request.url ?? '');
    // Never answers; the connection closes when kubectl goes.
    if (request.url?.startsWith('/hang')) return void hangingClosed.push(new Promise((resolve) => request.socket.once('close', resolve)));
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"kind":"Status","code":404}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  folder = await mkdtemp(path.join(tmpdir(), 'pilothouse-kubectl-'));
  kubeconfigPath = path.join(folder, 'kubeconfig');
  await writeFile(kubeconfigPath, kubeconfig((server.address() as AddressInfo).port));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

const kubectlTool = (overrides: Partial<KubectlToolOptions> = {}) =>
  createKubectlTool({ kubectlPath: findBinary('kubectl'), outputLimit: 64 * 1024, timeoutMs: 20_000, ...overrides });
const run = (command: string, extra: Partial<ToolContext> = {}, overrides: Partial<KubectlToolOptions> = {}) =>
  kubectlTool(overrides).run({ command }, { ...context(), ...extra });

describe('kubectl tool', () => {
  it('declares itself and its command line', () => {
    const tool = kubectlTool();
    expect(tool.definition).toMatchObject({ name: 'kubectl', type: 'kubectl', readOnly: false, destructive: true });
    expect(tool.definition.inputSchema).toMatchObject({ type: 'object', required: ['command'] });
    expect(tool.commandLine({ command: 'get pods -n x' })).toBe('kubectl get pods -n x');
    expect(tool.commandLine({ command: 'kubectl get pods' })).toBe('kubectl get pods');
  });

  it('runs the real binary with quoted arguments', async () => {
    const result = await run(`version --client -o 'json'`);
    expect(result).toMatchObject({ isError: false, exitCode: 0 });
    expect(JSON.parse(result.output)).toHaveProperty('clientVersion');
  });

  it('accepts a leading "kubectl"', async () => {
    expect(await run('kubectl version --client')).toMatchObject({ isError: false });
  });

  it("uses the session's kubeconfig as its only kubeconfig", async () => {
    expect((await run('config current-context')).output.trim()).toBe('first');
    const environment = await run('config view -o jsonpath={.clusters[0].cluster.server}');
    expect(environment.output).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses to run without a cluster session', async () => {
    expect(await run('version --client', { proxySession: undefined })).toMatchObject({ isError: true, output: expect.stringMatching(/no cluster session/) });
  });

  it('never impersonates by itself (the proxy does): no Impersonate-User header', async () => {
    seenHeaders.length = 0;
    await run('get pods --request-timeout=5s');
    expect(seenHeaders.length).toBeGreaterThan(0);
    expect(seenHeaders.some((headers) => headers['impersonate-user'] !== undefined)).toBe(false);
  });

  it('reports a failing command with stderr and exit code', async () => {
    const result = await run('get --raw /missing');
    expect(result).toMatchObject({ isError: true, exitCode: 1 });
    expect(result.output).toMatch(/\[stderr\]\n.*could not find the requested resource/s);
    expect(result.output).toMatch(/\[exit code 1\]$/);
  });

  it.each(['/apis//v1/namespaces/x/secrets/y', '/api/v1/namespaces/x/configmaps/../../y/secrets', '/api/./v1', '/api/%2e%2e/v1'])(
    'refuses a --raw path kubectl would not send as written (the card and audit would show another), before kubectl runs: %s',
    async (rawPath) => {
      seenPaths.length = 0;
      for (const command of [`get --raw ${rawPath}`, `delete --raw=${rawPath}`]) {
        expect(await run(command)).toEqual({
          isError: true,
          output: expect.stringMatching(
            /^kubectl tool: refused: --raw \S+: the path has (an empty segment \("\/\/"\)|a "\.\.?" segment), which kubectl would not send as written/,
          ),
        });
      }
      expect(seenPaths).toEqual([]);
    },
  );

  it('sends a --raw path with a trailing slash as written', async () => {
    seenPaths.length = 0;
    expect(await run('get --raw /api/v1/')).toMatchObject({ isError: true, exitCode: 1 });
    expect(seenPaths).toContain('/api/v1/');
  });

  it('cannot run kubectl plugins (the fixed flags come first)', async () => {
    expect(await run('frobnicate')).toMatchObject({ isError: true, output: expect.stringMatching(/plugin/) });
  });

  it.each(['get pods | grep x', 'get pods; delete pod x', 'get pods $(id)', 'get pods > x'])('refuses shell syntax: %s', async (command) => {
    expect(await run(command)).toMatchObject({ isError: true, output: expect.stringMatching(/use the bash tool/) });
  });

  it.each([
    'get pods --as=admin',
    'get pods --kubeconfig /etc/k',
    '--context=other get pods',
    'get pods --token abc',
    '-s http://x get pods',
    'get pods -shttp://x',
    'get pods --as_group=x',
  ])('refuses identity flags: %s', async (command) => {
    expect(await run(command)).toMatchObject({
      isError: true,
      output: expect.stringMatching(/refused: --(as|as-group|kubeconfig|context|token|server) chooses .*; the service sets it/),
    });
  });

  it('times out and kills kubectl', async () => {
    const requests = hangingClosed.length;
    const result = await run('get --raw /hang', {}, { timeoutMs: 500 });
    // kubectl is gone: its connection to the API server closed.
    expect(hangingClosed).toHaveLength(requests + 1);
    await hangingClosed[requests];
    expect(result).toMatchObject({ isError: true, output: expect.stringContaining('[timed out after 500 ms]') });
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const requests = hangingClosed.length;
    const running = run('get --raw /hang', { signal: controller.signal });
    // kubectl waits on the API server's answer.
    await waitFor(() => hangingClosed.length > requests);
    controller.abort();
    expect(await running).toMatchObject({ isError: true, output: expect.stringContaining('[cancelled]') });
    // kubectl is gone: its connection to the API server closed.
    await hangingClosed[requests];
  });

  it('caps the output', async () => {
    const result = await run('options', {}, { outputLimit: 200 });
    expect(result.truncated).toBe(true);
    expect(result.output.endsWith('\n[output truncated at 200 bytes]')).toBe(true);
    expect(result.output.length).toBe(200 + '\n[output truncated at 200 bytes]'.length);
  });
});
