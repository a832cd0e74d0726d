import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml } from '../../helpers/kubectl.js';
import { rootDirectory } from '../../helpers/paths.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { pilothouseCommand, serverModeFiles, startHttpServerMode } from './mcp-server-process.js';

/**
 * MCP server mode offers the chat's read-only `problems` tool under the caller's view (issues 34, 35): a user whose
 * role denies a namespace sees none of its findings through a real MCP client, and the process closes what it
 * opened (it exits on its own once stdin ends, after its problems engine ran).
 */
const open = useNamespace('mcpb-open');
const closed = useNamespace('mcpb-closed');
const authorization = {
  roles: [{ name: 'no-closed', resources: ['*'], namespaces: [closed.name], verbs: ['*' as const], effect: 'deny' as const }],
};
const files = serverModeFiles({ authorization });
const lonelyService = `apiVersion: v1\nkind: Service\nmetadata: {name: lonely}\nspec:\n  selector: {app: nobody}\n  ports: [{port: 80, targetPort: 8080}]\n`;
let child: ChildProcess | undefined;
let url: URL;
let web: TestService;

interface Finding {
  cluster: string;
  reason: string;
  object: { kind: string; namespace?: string; name: string };
}

/** The findings one `problems` call answers, as the token's caller. */
async function problems(token: string, args: Record<string, unknown> = {}): Promise<Finding[]> {
  const client = new Client({ name: 'pilothouse-problems-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    const result = (await client.callTool({ name: 'problems', arguments: args })) as { content: { text: string }[]; isError?: boolean };
    const text = result.content.map((part) => part.text).join('\n');
    expect(result.isError, text).not.toBe(true);
    return (JSON.parse(text) as { items: Finding[] }).items;
  } finally {
    await client.close();
  }
}

const lonelyIn = (findings: Finding[], namespace: string): boolean =>
  findings.some((finding) => finding.object.namespace === namespace && finding.object.name === 'lonely' && finding.reason === 'NoPodsSelected');

beforeAll(async () => {
  for (const namespace of [open.name, closed.name]) await applyYaml(clusterKubeconfig(), lonelyService, namespace);
  web = await startTestService({ dataDir: files.dataDir, config: { authorization } });
  const started = await startHttpServerMode(files.args(clusterKubeconfig(), ['--mcp-transport', 'http', '--port', '0']));
  child = started.child;
  url = new URL(started.url);
}, 120_000);

afterAll(async () => {
  child?.removeAllListeners('exit');
  child?.kill('SIGTERM');
  await web?.close();
  files.remove();
});

describe('MCP server mode: the problems tool', () => {
  it("shows a namespace-limited user the findings of the namespaces they may read, none of the denied one's", async () => {
    const unlimited = await web.createUser('user');
    let everyone: Finding[] = [];
    // The engine starts at the first call (lazy scope) and answers after its first analysis.
    await waitFor(async () => lonelyIn((everyone = await problems(unlimited.token)), open.name) && lonelyIn(everyone, closed.name), 60_000);
    expect(everyone.find((finding) => finding.object.namespace === open.name)?.cluster).toBe('home');
    const limited = await web.createUser('user', { roles: ['no-closed'] });
    const seen = await problems(limited.token);
    expect(lonelyIn(seen, open.name)).toBe(true);
    expect(seen.filter((finding) => finding.object.namespace === closed.name)).toEqual([]);
    expect(await problems(limited.token, { namespace: closed.name })).toEqual([]);
  });

  it('exits on its own once stdin ends, after a problems call started the cluster scope (nothing left open)', async () => {
    const { command, args } = pilothouseCommand(files.args(clusterKubeconfig()));
    const stdio = spawn(command, args, { cwd: rootDirectory, stdio: ['pipe', 'pipe', 'inherit'] });
    const answers = createInterface({ input: stdio.stdout });
    const answered = (id: number): Promise<Record<string, unknown>> =>
      new Promise((resolve) => {
        const onLine = (line: string): void => {
          const message = JSON.parse(line) as { id?: number };
          if (message.id !== id) return;
          answers.off('line', onLine);
          resolve(message);
        };
        answers.on('line', onLine);
      });
    const send = (message: Record<string, unknown>): void => void stdio.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    try {
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'handles', version: '1' } } });
      await answered(1);
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/call', params: { name: 'problems', arguments: { namespace: open.name } } });
      const result = (await answered(2)).result as { content: { text: string }[]; isError?: boolean };
      expect(result.isError, result.content[0]?.text).not.toBe(true);
      stdio.stdin.end();
      // No exit call on success (src/main.ts): the process ends only when its store, watches, probes and timers are closed.
      await waitFor(() => stdio.exitCode !== null || stdio.signalCode !== null, 60_000).catch(() => undefined);
      expect({ exitCode: stdio.exitCode, signal: stdio.signalCode }).toEqual({ exitCode: 0, signal: null });
    } finally {
      if (stdio.exitCode === null && stdio.signalCode === null) stdio.kill('SIGKILL');
    }
  }, 120_000);
});
