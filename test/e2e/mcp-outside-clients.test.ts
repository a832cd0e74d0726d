import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../helpers/cluster.js';
import { applyYaml } from '../helpers/kubectl.js';
import { rootDirectory } from '../helpers/paths.js';
import { pilothouseCommand, serverModeFiles } from './mcp-server-process.js';

const namespace = useNamespace('mcp-outside');
const files = serverModeFiles({});
let launcher: string;
let httpServer: ChildProcess | undefined;
let httpUrl: string;

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

/** Starts `pilothouse --mcp --mcp-transport http --port 0`-like on a free port and resolves with its URL. */
function startHttpServer(): Promise<{ child: ChildProcess; url: string }> {
  const { command, args } = pilothouseCommand(files.args(clusterKubeconfig(), ['--mcp-transport', 'http', '--port', '0']));
  const child = spawn(command, args, { cwd: rootDirectory, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('mcp http server did not start')), 60_000);
    child.once('exit', (code) => reject(new Error(`mcp http server exited with ${code}`)));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const match = /on (http:\/\/\S+\/mcp)$/.exec(line);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({ child, url: match[1] });
    });
  });
}

beforeAll(async () => {
  await applyYaml(clusterKubeconfig(), `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: outside}\ndata: {seen: "yes"}\n`, namespace.name);
  const { command, args } = pilothouseCommand(files.args(clusterKubeconfig()));
  launcher = join(files.dataDir.replace(/\/data$/, ''), 'pilothouse-mcp.sh');
  writeFileSync(launcher, `#!/bin/sh\nexec ${[command, ...args].map((word) => `'${word}'`).join(' ')}\n`);
  chmodSync(launcher, 0o755);
  const started = await startHttpServer();
  httpServer = started.child;
  httpUrl = started.url;
}, 120_000);

afterAll(async () => {
  httpServer?.removeAllListeners('exit');
  httpServer?.kill('SIGTERM');
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
    expect(names).toEqual(['kubectl', 'kubectl_get', 'kubectl_describe', 'kubectl_logs', 'kubectl_apply', 'bash']);
  });

  it('calls a tool against the cluster', async () => {
    const outcome = await inspect([launcher, '--method', 'tools/call', '--tool-name', 'kubectl_get', '--tool-arg', 'resource=configmap', '--tool-arg', 'name=outside', '--tool-arg', `namespace=${namespace.name}`, '--tool-arg', 'output=jsonpath={.data.seen}']);
    expect(outcome.code, outcome.stderr).toBe(0);
    const result = JSON.parse(outcome.stdout) as { content: { text: string }[]; isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toBe('yes');
  });

  it('also drives the Streamable HTTP transport', async () => {
    const outcome = await inspect([httpUrl, '--transport', 'http', '--method', 'tools/list']);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain('kubectl_describe');
  });
});

describe('@modelcontextprotocol/conformance against --mcp-transport http', () => {
  for (const scenario of ['server-initialize', 'ping', 'tools-list']) {
    it(`passes scenario ${scenario}`, async () => {
      // The suite writes results/ into its working folder: the temp folder of this file.
      const outcome = await runNode('@modelcontextprotocol/conformance/dist/index.js', ['server', '--url', httpUrl, '--scenario', scenario], files.dataDir.replace(/\/data$/, ''));
      expect(outcome.code, `${outcome.stdout}\n${outcome.stderr}`).toBe(0);
      expect(outcome.stdout).not.toMatch(/\bFAIL(ED)?\b/);
    });
  }
});
