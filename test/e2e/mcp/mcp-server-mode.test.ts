import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { truncationMarker } from '../../../src/tools/builtin/capped-output.js';
import { PinnedVersionTransport } from '../../../src/mcp/client/pinned-version-transport.js';
import { AuditLog } from '../../../src/audit/audit-log.js';
import { openDatabase } from '../../../src/store/database.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { rootDirectory } from '../../helpers/paths.js';
import { connectStdio, serverModeFiles, type ServerModeFiles } from './mcp-server-process.js';

const namespace = useNamespace('mcp-mode');
const goldenPath = join(rootDirectory, 'test/golden/mcp-server-tools.json');
const readOnlyFiles = serverModeFiles({ mcp_server: { identity: 'mcp-reader' } });
const writerFiles = serverModeFiles({ mcp_server: { allow_writes: true, bash: true } });
let reader: Client;
let writer: Client;
let readerPid: () => number | null;

type CallResult = { content: { type: string; text: string }[]; isError?: boolean };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallResult;
  return { text: result.content.map((part) => part.text).join('\n'), isError: result.isError === true };
}

function auditEntries(files: ServerModeFiles): ReturnType<AuditLog['query']>['items'] {
  const database = openDatabase(files.dataDir);
  try {
    return new AuditLog(database).query({ limit: 500, offset: 0, action: 'execute' }).items;
  } finally {
    database.close();
  }
}

beforeAll(async () => {
  const kubeconfig = clusterKubeconfig();
  await applyYaml(kubeconfig, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {color: blue}\n`, namespace.name);
  await applyYaml(
    kubeconfig,
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: talker\n  annotations: {pilothouse.dev/logs: "line one\\nline two\\nline three"}\nspec:\n  containers: [{name: app, image: busybox}]\n`,
    namespace.name,
  );
  await waitFor(async () => (await runKubectl(kubeconfig, ['get', 'pod', 'talker', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running');
  const [readerConnection, writerConnection] = await Promise.all([connectStdio(readOnlyFiles.args(kubeconfig)), connectStdio(writerFiles.args(kubeconfig))]);
  reader = readerConnection.client;
  readerPid = readerConnection.pid;
  writer = writerConnection.client;
}, 120_000);

afterAll(async () => {
  await Promise.all([reader?.close(), writer?.close()]);
  readOnlyFiles.remove();
  writerFiles.remove();
});

describe('pilothouse --mcp over stdio (official SDK client)', () => {
  it('lists exactly the server-mode tools, matching the golden file of names and schemas', async () => {
    const { tools } = await reader.listTools();
    const listed = tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema, annotations: tool.annotations }));
    expect(listed.map((tool) => tool.name)).toEqual([
      'kubectl',
      'kubectl_get',
      'kubectl_describe',
      'kubectl_logs',
      'kubectl_apply',
      'bash',
      'problems',
      'promql',
    ]);
    for (const tool of tools) expect(tool.description).toBeTruthy();
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(goldenPath)) writeFileSync(goldenPath, `${JSON.stringify(listed, null, 2)}\n`);
    expect(listed).toEqual(JSON.parse(readFileSync(goldenPath, 'utf8')));
  });

  it('answers a 2024-11-05 client with 2024-11-05 and a current client with the newest version', async () => {
    for (const [asked, answered] of [
      ['2024-11-05', '2024-11-05'],
      [LATEST_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION],
    ] as const) {
      const seen: string[] = [];
      const recording = (transport: Transport): Transport => {
        const pinned = new PinnedVersionTransport(transport, asked);
        const start = pinned.start.bind(pinned);
        pinned.start = async () => {
          await start();
          const deliver = pinned.onmessage;
          pinned.onmessage = (message, extra) => {
            const result = (message as { result?: { protocolVersion?: string } }).result;
            if (result?.protocolVersion) seen.push(result.protocolVersion);
            deliver?.(message, extra);
          };
        };
        return pinned;
      };
      const connection = await connectStdio(readOnlyFiles.args(clusterKubeconfig()), recording);
      expect(seen).toEqual([answered]);
      expect((await connection.client.listTools()).tools).toHaveLength(8);
      await connection.client.close();
    }
  });

  it('answers an unknown method with -32601 and keeps serving', async () => {
    const error = await reader.request({ method: 'pilothouse/unknown', params: {} }, z.object({}).loose()).catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32601);
    await reader.ping();
    expect((await reader.listTools()).tools).toHaveLength(8);
    expect(readerPid()).toBeGreaterThan(0);
  });

  it('runs kubectl and kubectl_get against the real cluster', async () => {
    const namespaces = await call(reader, 'kubectl', { command: 'get namespaces -o name' });
    expect(namespaces).toMatchObject({ isError: false, text: expect.stringContaining(`namespace/${namespace.name}`) });
    const configMaps = await call(reader, 'kubectl_get', { resource: 'configmaps', namespace: namespace.name, output: 'name' });
    expect(configMaps.text).toContain('configmap/settings');
    const everywhere = await call(reader, 'kubectl_get', { resource: 'pods', namespace: 'all' });
    expect(everywhere.text).toMatch(/NAMESPACE[\s\S]*talker/);
    const one = await call(reader, 'kubectl_get', { resource: 'configmap', name: 'settings', namespace: namespace.name, output: 'jsonpath={.data.color}' });
    expect(one).toEqual({ isError: false, text: 'blue' });
  });

  it('runs kubectl_describe and kubectl_logs', async () => {
    const described = await call(reader, 'kubectl_describe', { resource: 'configmap', name: 'settings', namespace: namespace.name });
    expect(described.text).toMatch(/Name:\s+settings/);
    const logs = await call(reader, 'kubectl_logs', { pod: 'talker', namespace: namespace.name, tail: 2 });
    expect(logs.isError).toBe(false);
    expect(logs.text).toContain('line three');
    expect(logs.text).not.toContain('line one');
  });

  it('refuses writes, blocked patterns and bash on a read-only server, naming the reason', async () => {
    const write = await call(reader, 'kubectl', { command: `create configmap sneaky -n ${namespace.name}` });
    expect(write).toMatchObject({ isError: true, text: expect.stringMatching(/refused.*read-only.*allow_writes/) });
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'sneaky', '-n', namespace.name])).code).not.toBe(0);
    const apply = await call(reader, 'kubectl_apply', { manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied}\n', namespace: namespace.name });
    expect(apply.text).toMatch(/refused/);
    const blocked = await call(reader, 'kubectl', { command: 'delete namespace kube-system' });
    expect(blocked).toMatchObject({ isError: true, text: expect.stringContaining('blocked pattern') });
    const bash = await call(reader, 'bash', { command: 'echo hi' });
    expect(bash).toMatchObject({ isError: true, text: expect.stringContaining('mcp_server.bash') });
  });

  it('turns bad arguments into isError results', async () => {
    const missing = await call(reader, 'kubectl_get', {});
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/resource/);
    const wrongType = await call(reader, 'kubectl_logs', { pod: 'talker', tail: 'many' });
    expect(wrongType.isError).toBe(true);
  });

  it('applies manifests (dry run on a read-only server too) and runs bash when allowed', async () => {
    const manifest = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied}\ndata: {from: mcp}\n`;
    const dryRun = await call(reader, 'kubectl_apply', { manifest, namespace: namespace.name, dry_run: true });
    expect(dryRun).toMatchObject({ isError: false, text: expect.stringContaining('server dry run') });
    const applied = await call(writer, 'kubectl_apply', { manifest, namespace: namespace.name });
    expect(applied).toMatchObject({ isError: false, text: expect.stringContaining('configmap/applied created') });
    expect(await runKubectl(clusterKubeconfig(), ['get', 'configmap', 'applied', '-n', namespace.name, '-o', 'jsonpath={.data.from}'])).toBe('mcp');
    const bash = await call(writer, 'bash', { command: `kubectl get configmap applied -n ${namespace.name} -o name | tr a-z A-Z` });
    expect(bash).toMatchObject({ isError: false, text: expect.stringContaining('CONFIGMAP/APPLIED') });
    const blocked = await call(writer, 'bash', { command: 'rm -rf /' });
    expect(blocked).toMatchObject({ isError: true, text: expect.stringContaining('blocked pattern') });
  });

  it('caps tool output', async () => {
    const capped = serverModeFiles({ tools: { output_limit: 1000 } });
    const connection = await connectStdio(capped.args(clusterKubeconfig()));
    try {
      const result = await call(connection.client, 'kubectl_get', { resource: 'namespaces', output: 'yaml' });
      // At most the limit, then the marker.
      expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(1000 + Buffer.byteLength(truncationMarker(1000)));
      expect(result.text).toContain('[output truncated at 1000 bytes]');
    } finally {
      await connection.client.close();
      capped.remove();
    }
  });

  it('audits every call as execute with the configured identity', async () => {
    await waitFor(() => auditEntries(readOnlyFiles).length >= 5);
    const entries = auditEntries(readOnlyFiles);
    expect(entries.every((entry) => entry.user === 'mcp-reader')).toBe(true);
    expect(entries).toContainEqual(
      expect.objectContaining({
        resource: 'tool/kubectl',
        decision: 'deny',
        details: expect.objectContaining({ command: `kubectl create configmap sneaky -n ${namespace.name}` }),
      }),
    );
    expect(entries).toContainEqual(expect.objectContaining({ resource: 'tool/kubectl_get', decision: 'allow', outcome: 'success' }));
    expect(auditEntries(writerFiles)).toContainEqual(expect.objectContaining({ user: 'mcp', resource: 'tool/bash', decision: 'allow' }));
  });
});
