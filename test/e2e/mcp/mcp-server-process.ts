import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import * as yaml from 'js-yaml';
import { rootDirectory } from '../../helpers/paths.js';

/** How to start `pilothouse --mcp` from the sources (no build): node with type transform + a .js→.ts resolve hook. */
export function pilothouseCommand(args: string[]): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [
      '--experimental-transform-types',
      '--no-warnings',
      '--import',
      join(rootDirectory, 'test/fixtures/mcp/register-ts.mjs'),
      join(rootDirectory, 'src/main.ts'),
      ...args,
    ],
  };
}

/** A temp config file + data dir for one server-mode process. */
export interface ServerModeFiles {
  configPath: string;
  dataDir: string;
  args(kubeconfig: string, extra?: string[]): string[];
  remove(): void;
}

export function serverModeFiles(config: Record<string, unknown>): ServerModeFiles {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-mcp-'));
  const configPath = join(directory, 'config.yaml');
  writeFileSync(configPath, yaml.dump(config));
  const dataDir = join(directory, 'data');
  return {
    configPath,
    dataDir,
    args: (kubeconfig, extra = []) => ['--mcp', '--config', configPath, '--data-dir', dataDir, '--kubeconfig', kubeconfig, '--log-level', 'warn', ...extra],
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** An SDK client over real stdio to a `pilothouse --mcp` child; `wrap` may decorate the transport. */
export async function connectStdio(
  args: string[],
  wrap: (transport: Transport) => Transport = (transport) => transport,
): Promise<{ client: Client; stderr: () => string; pid: () => number | null }> {
  const transport = new StdioClientTransport({ ...pilothouseCommand(args), stderr: 'pipe', cwd: rootDirectory });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'pilothouse-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(wrap(transport), { timeout: 60_000 });
  return { client, stderr: () => stderr, pid: () => transport.pid };
}

/** Starts `pilothouse --mcp --mcp-transport http` with `args` and resolves with the URL it prints. */
export function startHttpServerMode(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const { command, args: argv } = pilothouseCommand(args);
  const child = spawn(command, argv, { cwd: rootDirectory, stdio: ['ignore', 'pipe', 'pipe'] });
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
