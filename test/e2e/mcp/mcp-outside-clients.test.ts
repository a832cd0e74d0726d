import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml } from '../../helpers/kubectl.js';
import { rootDirectory } from '../../helpers/paths.js';
import { pilothouseCommand, serverModeFiles, startHttpServerMode } from './mcp-server-process.js';

const namespace = useNamespace('mcp-outside');
const mcpToken = 'outside-clients-token-0123456789';
const files = serverModeFiles({ mcp_server: { tokens: [{ name: 'outside', token: mcpToken }] } });
let launcher: string;
let httpServer: ChildProcess | undefined;
let httpUrl: string;
let tokenProxy: Server | undefined;
let proxiedUrl: string;

/** The conformance suite sends no Authorization header: a loopback proxy adds the bearer token. */
async function startTokenProxy(target: URL): Promise<string> {
  tokenProxy = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, host: target.host, authorization: `Bearer ${mcpToken}` };
    const forwarded = httpRequest({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => tokenProxy!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(tokenProxy.address() as AddressInfo).port}/mcp`;
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node CLI from node_modules with the current node; resolves with its output. */
function runNode(script: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(rootDirectory, 'node_modules', script), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  await applyYaml(clusterKubeconfig(), `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: outside}\ndata: {seen: "yes"}\n`, namespace.name);
  const { command, args } = pilothouseCommand(files.args(clusterKubeconfig()));
  launcher = join(files.dataDir.replace(/\/data$/, ''), 'pilothouse-mcp.sh');
  writeFileSync(launcher, `#!/bin/sh\nexec ${[command, ...args].map((word) => `'${word}'`).join(' ')}\n`);
  chmodSync(launcher, 0o755);
  const started = await startHttpServerMode(files.args(clusterKubeconfig(), ['--mcp-transport', 'http', '--port', '0']));
  httpServer = started.child;
  httpUrl = started.url;
  proxiedUrl = await startTokenProxy(new URL(httpUrl));
}, 120_000);

afterAll(async () => {
  httpServer?.removeAllListeners('exit');
  httpServer?.kill('SIGTERM');
  tokenProxy?.close();
  files.remove();
});

describe('@modelcontextprotocol/inspector-cli against pilothouse --mcp (stdio)', () => {
  const inspector = '@modelcontextprotocol/inspector-cli/build/index.js';
  // inspector-cli looks for its package.json with a cwd-relative existsSync('../package.json') and
  // then imports that path relative to its module: run it from its build folder so both agree.
  const inspectorCwd = join(rootDirectory, 'node_modules/@modelcontextprotocol/inspector-cli/build');
  const inspect = (args: string[]): Promise<Outcome> => runNode(inspector, args, inspectorCwd);

  it('lists the tools', async () => {
    const outcome = await inspect([launcher, '--method', 'tools/list']);
    expect(outcome.code, outcome.stderr).toBe(0);
    const names = (JSON.parse(outcome.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toEqual(['kubectl', 'kubectl_get', 'kubectl_describe', 'kubectl_logs', 'kubectl_apply', 'bash', 'problems', 'promql']);
  });

  it('calls a tool against the cluster', async () => {
    const outcome = await inspect([
      launcher,
      '--method',
      'tools/call',
      '--tool-name',
      'kubectl_get',
      '--tool-arg',
      'resource=configmap',
      '--tool-arg',
      'name=outside',
      '--tool-arg',
      `namespace=${namespace.name}`,
      '--tool-arg',
      'output=jsonpath={.data.seen}',
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    const result = JSON.parse(outcome.stdout) as { content: { text: string }[]; isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toBe('yes');
  });

  it('also drives the Streamable HTTP transport', async () => {
    const outcome = await inspect([httpUrl, '--transport', 'http', '--header', `Authorization: Bearer ${mcpToken}`, '--method', 'tools/list']);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain('kubectl_describe');
  });
});

describe('@modelcontextprotocol/conformance against --mcp-transport http', () => {
  for (const scenario of ['server-initialize', 'ping', 'tools-list']) {
    it(`passes scenario ${scenario}`, async () => {
      // The suite writes results/ into its working folder: the temp folder of this file.
      const outcome = await runNode(
        '@modelcontextprotocol/conformance/dist/index.js',
        ['server', '--url', proxiedUrl, '--scenario', scenario],
        files.dataDir.replace(/\/data$/, ''),
      );
      expect(outcome.code, `${outcome.stdout}\n${outcome.stderr}`).toBe(0);
      expect(outcome.stdout).not.toMatch(/\bFAIL(ED)?\b/);
    });
  }
});
