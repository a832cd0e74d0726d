import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventsNamed, startAgentHarness, type AgentHarness } from '../../test/helpers/agent-harness.js';
import { AppError } from '../errors.js';
import type { ToolClusterGateway } from '../tools/types.js';
import type { ClusterDirectory } from './cluster-directory.js';

// The loop's side of many clusters (ADR 0035): which cluster a bash call's proxy is opened on, what the model is
// told, and what the events and the audit row say. The proxy itself is e2e-tested on two real clusters
// (test/e2e/agent/ai-clusters.test.ts); here the gateway only records the cluster it was asked for and answers
// "unreachable", so nothing runs.
let harness: AgentHarness;
const opened: (string | undefined)[] = [];
const clusters: ClusterDirectory = {
  home: 'home',
  names: () => ['home', 'prod'],
  describe: () => [
    { name: 'home', reachable: true },
    { name: 'prod', reachable: true },
  ],
};
const gateway: ToolClusterGateway = {
  open: (request) => {
    opened.push(request.clusterName);
    return Promise.reject(new AppError('UNAVAILABLE', `cluster "${request.clusterName}" is unreachable`, { cluster: request.clusterName }));
  },
};

beforeAll(async () => {
  harness = await startAgentHarness({ clusters, gateway });
});
afterAll(async () => harness.close());
beforeEach(() => {
  harness.wire.reset();
  opened.length = 0;
});

type ChatBody = { messages: { role: string; content?: unknown }[] };
const systemPrompt = (): string => String((harness.wire.chatRequests()[0]?.body as ChatBody).messages[0]?.content);

describe('agent loop on many clusters', () => {
  it('opens the proxy on the cluster a call names, else on the chat cluster, and says so in events, history and audit', async () => {
    harness.wire.script([
      { toolCalls: [{ name: 'bash', arguments: { command: 'kubectl get pods', cluster: 'prod' }, id: 'call_prod' }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'kubectl get pods' }, id: 'call_chat' }] },
      { text: ['done'] },
    ]);
    const { events, sessionId } = await harness.turn('pods on both', { cluster: 'home' });
    expect(opened).toEqual(['prod', 'home']);
    expect(eventsNamed(events, 'tool_request').map((request) => [request.id, request.cluster])).toEqual([
      ['call_prod', 'prod'],
      ['call_chat', 'home'],
    ]);
    expect(eventsNamed(events, 'tool_execution')[0]).toMatchObject({
      status: 'error',
      result: 'could not open the cluster session (policy proxy) on cluster "prod" for this call: cluster "prod" is unreachable; the command was not run',
    });
    const stored = await harness.store.entries(sessionId);
    expect(stored.find((entry) => entry.kind === 'tool_request')?.payload).toMatchObject({ id: 'call_prod', cluster: 'prod' });
    expect(stored.find((entry) => entry.kind === 'user')?.payload).toMatchObject({ context: { cluster: 'home' } });
    const audit = harness.audit.query({ limit: 10, offset: 0, action: 'execute' }).items.filter((entry) => entry.details.session_id === sessionId);
    expect(audit.map((entry) => entry.cluster).sort()).toEqual(['home', 'prod']);
    expect(systemPrompt()).toContain("Clusters (2):\n- home (reachable) <- this chat's cluster\n- prod (reachable)");
  });

  it('refuses a call naming an unknown cluster before asking anyone, and the model reads why', async () => {
    harness.wire.script([{ toolCalls: [{ name: 'bash', arguments: { command: 'touch x', cluster: 'staging' }, id: 'call_unknown' }] }, { text: ['ok'] }]);
    const { events } = await harness.turn('make a file on staging', { role: 'user' });
    expect(opened).toEqual([]);
    const [request] = eventsNamed(events, 'tool_request');
    expect(request).toMatchObject({ id: 'call_unknown', requiresApproval: false });
    expect(request?.cluster).toBeUndefined();
    expect(eventsNamed(events, 'tool_execution')[0]).toEqual({
      id: 'call_unknown',
      status: 'error',
      result: 'Unknown cluster "staging": the clusters are home, prod; the command was not run.',
    });
  });

  it('asks approval for a write with the cluster on the approval event', async () => {
    harness.wire.script([
      { toolCalls: [{ name: 'bash', arguments: { command: 'kubectl delete pod web', cluster: 'prod' }, id: 'call_write' }] },
      { text: ['ok'] },
    ]);
    const { events } = await harness.turn('delete web on prod', {
      cluster: 'home',
      onEvent: (event) => {
        if (event.event === 'tool_request') harness.approvals.decide(harness.principal('admin'), event.data.id, true);
      },
    });
    expect(eventsNamed(events, 'tool_request')[0]).toMatchObject({ id: 'call_write', requiresApproval: true, cluster: 'prod' });
    expect(opened).toEqual(['prod']);
  });
});
