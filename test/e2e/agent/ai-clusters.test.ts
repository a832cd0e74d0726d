import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/audit/audit-log.js';
import type { AuditEntry } from '../../../src/audit/types.js';
import { openDatabase } from '../../../src/store/database.js';
import { chat, type ChatEvent } from '../../helpers/chat-stream.js';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { useSecondCluster } from '../../helpers/second-cluster.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { connectStdio, serverModeFiles, type ServerModeFiles } from '../mcp/mcp-server-process.js';

// The AI pilot and MCP server mode across clusters (issue 29, ADR 0035) on two real clusters: the shared test
// cluster is `home`, a second one of this file is `b`. A kubectl tool call naming `cluster: b` runs through b's
// own policy proxy (b's objects, b's role rules), the approval event names the cluster, and an unknown name is a
// tool error. A deny rule scoped to b (`clusters: [b]`) refuses the AI's read on b but not on home.
const home = useNamespace('ai-home');
const second = useSecondCluster(1);
const bNamespace = uniqueName('ai-b');
let service: TestService;
let wire: LlmWireServer;
let restricted: { username: string; token: string };

const kubectl = (command: string, cluster?: string, id?: string) => ({ name: 'kubectl', arguments: { command, ...(cluster ? { cluster } : {}) }, id });
const onB = async (...args: string[]): Promise<boolean> => (await tryKubectl(second.current.kubeconfig, args)).code === 0;
const onHome = async (...args: string[]): Promise<boolean> => (await tryKubectl(clusterKubeconfig(), args)).code === 0;
type ChatBody = { messages: { role: string; content?: unknown }[] };
const systemPrompt = (index = 0): string => String((wire.chatRequests()[index]?.body as ChatBody).messages[0]?.content);

async function executeRows(sessionId: string): Promise<AuditEntry[]> {
  const audit = await service.api<{ items: AuditEntry[] }>('GET', '/api/audit?action=execute&limit=200', { token: service.adminToken });
  return audit.body.items.filter((entry) => entry.details.session_id === sessionId);
}

beforeAll(async () => {
  const kubeconfig = second.current.kubeconfig;
  await runKubectl(kubeconfig, ['create', 'namespace', bNamespace]);
  await runKubectl(kubeconfig, ['create', 'configmap', 'only-on-b', '-n', bNamespace]);
  await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'only-on-home', '-n', home.name]);
  wire = await startLlmWireServer();
  service = await startTestService({
    config: {
      llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-ai-clusters', max_retries: 0 },
      cluster: { name: 'home', secrets: false },
      clusters: [{ name: 'b', kubeconfig }],
      authorization: { roles: [{ name: 'no-configmaps-on-b', resources: ['configmaps'], verbs: ['*'], effect: 'deny', clusters: ['b'] }] },
    } as never,
  });
  await waitFor(async () => {
    const listed = await service.api<{ items: { name: string; reachable: boolean }[] }>('GET', '/api/clusters', { token: service.adminToken });
    return listed.status === 200 && listed.body.items.length === 2 && listed.body.items.every((cluster) => cluster.reachable);
  }, 60_000);
  restricted = await service.createUser('user', { roles: ['no-configmaps-on-b'] });
}, 300_000);

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

beforeEach(() => wire.reset());

describe('the AI pilot across clusters', () => {
  it('runs a kubectl call naming cluster b on b (its objects, not home’s), one naming none on the chat’s cluster', async () => {
    wire.script([
      { toolCalls: [kubectl('get configmaps -A -o name', 'b', 'call_on_b')] },
      { toolCalls: [kubectl(`get configmaps -n ${home.name} -o name`, undefined, 'call_on_home')] },
      { text: ['Listed both.'] },
    ]);
    const run = await chat(service, { message: 'configmaps on b and here' }, { token: service.adminToken });
    expect(run.status).toBe(200);
    expect(run.named('tool_request').map((request) => [request.id, request.cluster])).toEqual([
      ['call_on_b', 'b'],
      ['call_on_home', 'home'],
    ]);
    const [onBResult, onHomeResult] = run.named('tool_execution');
    expect(onBResult).toMatchObject({ status: 'executed', result: expect.stringContaining('configmap/only-on-b') });
    expect(onBResult?.result).not.toContain('only-on-home');
    expect(onHomeResult).toMatchObject({ status: 'executed', result: expect.stringContaining('configmap/only-on-home') });
    expect(onHomeResult?.result).not.toContain('only-on-b');
    // The model was told which clusters exist and which one the chat is about.
    expect(systemPrompt()).toMatch(/Clusters \(2\):\n- home \(reachable, v1\.[^)]*\) <- this chat's cluster\n- b \(reachable, v1\.[^)]*\)/);
    // Audit: each execute row names the cluster it ran on; the chat's query row names the chat's cluster.
    const sessionId = run.nth('session').session_id;
    const rows = await executeRows(sessionId);
    expect(rows.map((row) => [row.details.id, row.cluster]).sort()).toEqual([
      ['call_on_b', 'b'],
      ['call_on_home', 'home'],
    ]);
    const queries = await service.api<{ items: AuditEntry[] }>('GET', `/api/audit?action=query&limit=50`, { token: service.adminToken });
    expect(queries.body.items.find((row) => row.resource === `chat/${sessionId}`)?.cluster).toBe('home');
  });

  it('sends the tool calls of a chat about cluster b to b, and keeps the cluster in the history', async () => {
    wire.script([{ toolCalls: [kubectl('get namespaces -o name', undefined, 'call_chat_b')] }, { text: ['These are b’s namespaces.'] }]);
    const run = await chat(service, { message: 'namespaces?', cluster: 'b' }, { token: service.adminToken });
    expect(run.nth('tool_request')).toMatchObject({ id: 'call_chat_b', cluster: 'b' });
    const result = run.nth('tool_execution').result;
    expect(result).toContain(`namespace/${bNamespace}`);
    expect(result).not.toContain(`namespace/${home.name}`);
    expect(systemPrompt()).toContain('- b (reachable');
    expect(systemPrompt()).toMatch(/- b \(reachable[^\n]*<- this chat's cluster/);
    const history = await service.api('GET', `/api/chat/history?session_id=${run.nth('session').session_id}`, { token: service.adminToken });
    const [user, assistant] = history.body.messages;
    expect(user.context).toMatchObject({ cluster: 'b' });
    expect(assistant.toolCalls[0]).toMatchObject({ id: 'call_chat_b', cluster: 'b', status: 'executed' });
  });

  it('takes the chat’s cluster from ?cluster= or context.cluster as API users write it, and refuses two that disagree', async () => {
    for (const [body, query] of [
      [{ message: 'namespaces?', context: { cluster: 'b' } }, ''],
      [{ message: 'namespaces?' }, '?cluster=b'],
      [{ message: 'namespaces?', cluster: 'b', context: { cluster: 'b' } }, '?cluster=b'],
    ] as const) {
      wire.script([{ toolCalls: [kubectl('get namespaces -o name', undefined, 'call_where')] }, { text: ['Listed.'] }]);
      const run = await chat(service, body, { token: service.adminToken, query });
      expect(run.nth('tool_request')).toMatchObject({ id: 'call_where', cluster: 'b' });
      expect(run.nth('tool_execution').result).toContain(`namespace/${bNamespace}`);
    }
    const requestsBefore = wire.chatRequests().length;
    const disagree = await chat(service, { message: 'hi', context: { cluster: 'home' } }, { token: service.adminToken, query: '?cluster=b' });
    expect(disagree.status).toBe(400);
    expect(disagree.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { cluster: expect.stringContaining('"b"') } } });
    const unknownProperty = await chat(service, { message: 'hi', context: { namespace: home.name, clusterName: 'b' } }, { token: service.adminToken });
    expect(unknownProperty.status).toBe(400);
    expect(unknownProperty.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(wire.chatRequests()).toHaveLength(requestsBefore);
  });

  it('answers an unknown chat cluster with 404 naming it, and an unknown tool-call cluster with a tool error', async () => {
    const refused = await chat(service, { message: 'hi', cluster: 'nowhere' }, { token: service.adminToken });
    expect(refused.status).toBe(404);
    expect(refused.error).toMatchObject({ code: 'NOT_FOUND', details: { cluster: 'nowhere' } });
    expect(wire.chatRequests()).toHaveLength(0);

    wire.script([{ toolCalls: [kubectl('get pods -A', 'nowhere', 'call_nowhere')] }, { text: ['No such cluster.'] }]);
    const run = await chat(service, { message: 'pods on nowhere' }, { token: service.adminToken });
    expect(run.nth('tool_execution')).toEqual({
      id: 'call_nowhere',
      status: 'error',
      result: 'Unknown cluster "nowhere": the clusters are home, b; the command was not run.',
    });
  });

  it('asks approval for a write on b with the cluster on the approval event; approved, it changes b only', async () => {
    const name = uniqueName('made-on-b');
    wire.script([{ toolCalls: [kubectl(`create configmap ${name} -n ${bNamespace}`, 'b', 'call_write_b')] }, { text: ['Created on b.'] }]);
    const approvals: ChatEvent[] = [];
    const run = await chat(
      service,
      { message: `create ${name} on b` },
      {
        token: service.adminToken,
        onEvent: async (event) => {
          if (event.event !== 'tool_request' || !event.data.requiresApproval) return;
          approvals.push(event);
          await service.api('POST', '/api/tool/approve', { token: service.adminToken, body: { id: event.data.id, approved: true } });
        },
      },
    );
    expect(approvals.map((event) => event.data)).toEqual([expect.objectContaining({ id: 'call_write_b', requiresApproval: true, cluster: 'b' })]);
    expect(run.nth('tool_execution')).toMatchObject({ status: 'executed' });
    expect(await onB('get', 'configmap', name, '-n', bNamespace)).toBe(true);
    expect(await onHome('get', 'configmap', name, '-A')).toBe(false);
    // The human's decision is audited with the cluster of the call it decided (the approve route itself names none).
    const decided = await service.api<{ items: AuditEntry[] }>('GET', '/api/audit?action=approve&cluster=b&limit=50', { token: service.adminToken });
    expect(decided.body.items.filter((row) => row.details.id === 'call_write_b')).toEqual([
      expect.objectContaining({ action: 'approve', cluster: 'b', resource: 'tool/kubectl', decision: 'allow' }),
    ]);
  });

  it('audits a rejection with the cluster of the rejected call; nothing is created on b', async () => {
    const name = uniqueName('refused-on-b');
    wire.script([{ toolCalls: [kubectl(`create configmap ${name} -n ${bNamespace}`, 'b', 'call_reject_b')] }, { text: ['Not created.'] }]);
    const run = await chat(
      service,
      { message: `create ${name} on b` },
      {
        token: service.adminToken,
        onEvent: async (event) => {
          if (event.event !== 'tool_request' || !event.data.requiresApproval) return;
          await service.api('POST', '/api/tool/approve', { token: service.adminToken, body: { id: event.data.id, approved: false } });
        },
      },
    );
    expect(run.nth('tool_execution')).toMatchObject({ id: 'call_reject_b', status: 'rejected' });
    expect(await onB('get', 'configmap', name, '-n', bNamespace)).toBe(false);
    const rejected = await service.api<{ items: AuditEntry[] }>('GET', '/api/audit?action=reject&limit=50', { token: service.adminToken });
    expect(rejected.body.items.filter((row) => row.details.id === 'call_reject_b')).toEqual([
      expect.objectContaining({ action: 'reject', cluster: 'b', resource: 'tool/kubectl', decision: 'deny' }),
    ]);
  });

  it('refuses the AI’s read on b under a deny rule scoped to b, and allows the same read on home', async () => {
    wire.script([
      { toolCalls: [kubectl(`get configmaps -n ${bNamespace} -o name`, 'b', 'call_denied_b')] },
      { toolCalls: [kubectl(`get configmaps -n ${home.name} -o name`, 'home', 'call_allowed_home')] },
      { text: ['One refused, one listed.'] },
    ]);
    const run = await chat(service, { message: 'configmaps' }, { token: restricted.token });
    const [onBResult, onHomeResult] = run.named('tool_execution');
    expect(onBResult?.result).toMatch(/\[policy\] refused list configmaps in ns\/.*/);
    expect(onBResult?.result).not.toContain('only-on-b');
    expect(onHomeResult).toMatchObject({ status: 'executed', result: expect.stringContaining('configmap/only-on-home') });
    const rows = await executeRows(run.nth('session').session_id);
    expect(rows.find((row) => row.details.id === 'call_denied_b')).toMatchObject({ cluster: 'b', decision: 'deny' });
    expect(rows.find((row) => row.details.id === 'call_allowed_home')).toMatchObject({ cluster: 'home', decision: 'allow' });
  });
});

describe('MCP server mode across clusters', () => {
  let files: ServerModeFiles;
  let client: Client;
  type CallResult = { content: { type: string; text: string }[]; isError?: boolean };
  const call = async (name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> => {
    const result = (await client.callTool({ name, arguments: args })) as CallResult;
    return { text: result.content.map((part) => part.text).join('\n'), isError: result.isError === true };
  };

  beforeAll(async () => {
    files = serverModeFiles({
      cluster: { name: 'home' },
      clusters: [{ name: 'b', kubeconfig: second.current.kubeconfig }],
      // Bound to the stdio caller's base role (user: the server is read-only).
      authorization: { roles: [{ name: 'user', resources: ['pods'], verbs: ['*'], effect: 'deny', clusters: ['b'] }] },
    });
    client = (await connectStdio(files.args(clusterKubeconfig()))).client;
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    files?.remove();
  });

  it('offers cluster on every tool, runs a call naming b on b, one naming none on home, and refuses an unknown name', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('cluster');
    // The namespace exists on b only: on home the same call would find nothing.
    const onBCall = await call('kubectl_get', { resource: 'configmaps', namespace: bNamespace, output: 'name', cluster: 'b' });
    expect(onBCall).toMatchObject({ isError: false, text: expect.stringContaining('configmap/only-on-b') });
    expect(onBCall.text).not.toContain('only-on-home');
    const onHomeCall = await call('kubectl', { command: `get configmaps -n ${home.name} -o name` });
    expect(onHomeCall).toEqual({ isError: false, text: expect.stringContaining('configmap/only-on-home') });
    const unknown = await call('kubectl_get', { resource: 'pods', cluster: 'nowhere' });
    expect(unknown).toEqual({
      isError: true,
      text: 'could not open the cluster session (policy proxy) on cluster "nowhere" for this call: cluster "nowhere" not found; the command was not run',
    });
    const database = openDatabase(files.dataDir);
    try {
      const rows = new AuditLog(database).query({ limit: 50, offset: 0, action: 'execute' }).items;
      expect(rows.map((row) => row.cluster).sort()).toEqual(['b', 'home', 'nowhere']);
    } finally {
      database.close();
    }
  });

  it('decides each cluster with its own role rules: a deny scoped to b refuses on b only', async () => {
    const onBCall = await call('kubectl_get', { resource: 'pods', namespace: bNamespace, cluster: 'b' });
    expect(onBCall.text).toMatch(/\[policy\] refused list pods in ns\//);
    const onHomeCall = await call('kubectl_get', { resource: 'pods', namespace: home.name });
    expect(onHomeCall.text).toContain('No resources found');
    expect(onHomeCall.text).not.toContain('[policy] refused');
  });
});
