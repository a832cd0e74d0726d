import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attackCorpus, type AttackEntry } from '../../fixtures/safety/attack-corpus.js';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { chat, type ChatEvent } from '../../helpers/chat-stream.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import type { AuditEntry } from '../../../src/audit/types.js';

// Issue 10, design item 5: the attack lines marked `e2e` in the attack corpus go END TO END through the
// chat (scripted LLM wire server) as role user and admin. Refused lines come back `blocked` with their
// reason; the rest wait for approval (rejected here) or, for a user, dangerous ones are `forbidden`.
// Nothing runs, the cluster is unchanged, no credential appears, and the audit `execute` row says why.

const namespace = useNamespace('attack');
let service: TestService;
let wire: LlmWireServer;
const entries = attackCorpus.filter((entry) => entry.e2e);
const llmConfig = (): Record<string, unknown> => ({
  provider: 'openai',
  model: 'wire-model',
  base_url: `${wire.url}/v1`,
  api_key: 'sk-attack-test',
  max_retries: 0,
});

/** Namespaces the attack lines aim at, plus this file's own (other test files create and delete theirs meanwhile). */
const watchedNamespaces = new Set(['kube-system', 'kube-public', 'kube-node-lease', 'default', 'prod', namespace.name]);

async function clusterState(): Promise<string> {
  const all = await runKubectl(clusterKubeconfig(), ['get', 'namespaces', '-o', 'name']);
  const namespaces = all
    .split('\n')
    .filter((line) => watchedNamespaces.has(line.replace('namespace/', '')))
    .join('\n');
  const objects = await runKubectl(clusterKubeconfig(), ['get', 'configmaps,pods,secrets', '-n', namespace.name, '-o', 'name']);
  return `${namespaces}\n${objects}`;
}

function expectedStatus(entry: AttackEntry, role: 'user' | 'admin'): string {
  if (entry.expect === 'refused') return 'blocked';
  if (entry.expect === 'read') return 'executed';
  return role === 'user' && entry.expect === 'dangerous' ? 'forbidden' : 'rejected';
}

/** Rejects every approval request over HTTP. */
function rejecter(token: string) {
  return async (event: ChatEvent): Promise<void> => {
    if (event.event !== 'tool_request' || !event.data.requiresApproval || event.data.blocked) return;
    await service.api('POST', '/api/tool/approve', { token, body: { id: event.data.id, approved: false } });
  };
}

beforeAll(async () => {
  wire = await startLlmWireServer();
  const filesRoot = await mkdtemp(join(tmpdir(), 'attack-files-'));
  service = await startTestService({ config: { llm: llmConfig() as never, tools: { bash: { enabled: true }, files: { root: filesRoot } } } });
  await runKubectl(clusterKubeconfig(), ['create', 'configmap', 'sentinel', '-n', namespace.name, '--from-literal=a=b']);
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

describe('attack lines through the chat', () => {
  it('has at least 20 end-to-end lines', () => {
    expect(entries.length).toBeGreaterThanOrEqual(20);
  });

  it.each(['user', 'admin'] as const)('as %s: refused lines are blocked with their reason, nothing else runs unasked', async (role) => {
    const caller = await service.createUser(role);
    const before = await clusterState();
    const calls = entries.map((entry) => ({ name: entry.tool, arguments: { command: entry.command } }));
    wire.script([{ toolCalls: calls }, { text: ['Done.'] }]);
    const run = await chat(service, { message: 'Try these', context: { namespace: namespace.name } }, { token: caller.token, onEvent: rejecter(caller.token) });
    const requests = run.named('tool_request');
    const executions = run.named('tool_execution');
    expect(requests).toHaveLength(entries.length);
    const seen = entries.map((entry, index) => ({ command: entry.command, status: executions.find((item) => item.id === requests[index]?.id)?.status }));
    expect(seen).toEqual(entries.map((entry) => ({ command: entry.command, status: expectedStatus(entry, role) })));
    entries.forEach((entry, index) => {
      if (entry.expect !== 'refused') return;
      const execution = executions.find((item) => item.id === requests[index]?.id);
      expect(String(execution?.result), entry.command).toMatch(entry.reason ?? /./);
    });
    const outputs = executions.map((item) => String(item.result)).join('\n');
    expect(outputs).not.toMatch(/client-key-data|client-certificate-data|BEGIN (RSA |EC )?PRIVATE KEY|sk-attack-test/);
    expect(await clusterState()).toBe(before);
    const audit = await service.api('GET', '/api/audit?action=execute&limit=500', { token: service.adminToken });
    const rows = audit.body.items as AuditEntry[];
    entries.forEach((entry, index) => {
      if (entry.expect !== 'refused') return;
      const row = rows.find((item) => item.details.id === requests[index]?.id);
      expect(row, entry.command).toMatchObject({ decision: 'deny', outcome: 'blocked' });
      expect(String(row?.details.reason), entry.command).toMatch(entry.reason ?? /./);
    });
  });

  it('POST /api/tool/analyze reports the refusal without running anything', async () => {
    const response = await service.api('POST', '/api/tool/analyze', {
      token: service.adminToken,
      body: { tool: 'kubectl', command: 'get pods -shttps://host:8443' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ type: 'read', blocked: true, requiresApproval: true, refusal: expect.stringMatching(/--server/) });
  });
});
