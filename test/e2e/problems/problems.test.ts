import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { followEvents } from '../../helpers/sse-follow.js';
import { chat } from '../../helpers/chat-stream.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Problems (docs/user-guide/problems.md): objects broken for real in the test cluster are found with their
 * evidence, a fixed object's finding goes away (in the list and the live stream), and a caller denied a
 * namespace sees none of its findings.
 */
const broken = useNamespace('pb-broken');
const other = useNamespace('pb-other');
const node = 'kwok-node-0';
const webhookName = uniqueName('pb-webhook');
let service: TestService;
let limited: { username: string; token: string };
let wire: LlmWireServer;

interface Finding {
  id: string;
  cluster: string;
  analyzer: string;
  severity: string;
  object: { kind: string; namespace?: string; name: string };
  owner?: { kind: string; name: string };
  reason: string;
  message: string;
  evidence: string[];
  hint: string;
  since: string;
  lastSeen: string;
}

const kubectl = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), args);
const apply = (yaml: string, namespace?: string): Promise<string> => applyYaml(clusterKubeconfig(), yaml, namespace);

async function problems(
  query: string,
  token = service.adminToken,
): Promise<{ items: Finding[]; total: number; counts: Record<string, number>; continue?: string }> {
  const response = await service.api('GET', `/api/problems${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function findingOf(namespace: string, kind: string, name: string, reason: string): Promise<Finding | undefined> {
  const { items } = await problems(`?namespace=${namespace}&kind=${kind}`);
  return items.find((item) => item.object.name === name && item.reason === reason);
}

async function waitForFinding(namespace: string, kind: string, name: string, reason: string): Promise<Finding> {
  let found: Finding | undefined;
  await waitFor(async () => (found = await findingOf(namespace, kind, name, reason)) !== undefined, 60_000);
  return found!;
}

const podYaml = (name: string, labels = '{app: web}'): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: ${labels}}
spec:
  nodeName: ${node}
  containers: [{name: main, image: busybox, ports: [{name: http, containerPort: 8080}]}]`;

/** Sets a KWOK pod's status to a crash loop (KWOK's stages leave a Running pod's status alone). */
async function crashLoop(namespace: string, name: string): Promise<void> {
  const status = {
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: [
        {
          name: 'main',
          image: 'busybox',
          imageID: '',
          ready: false,
          restartCount: 7,
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } },
          lastState: { terminated: { reason: 'Error', exitCode: 3, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z' } },
        },
      ],
    },
  };
  await kubectl('patch', 'pod', name, '-n', namespace, '--subresource=status', '--type=merge', '-p', JSON.stringify(status));
}

beforeAll(async () => {
  wire = await startLlmWireServer();
  service = await startTestService({
    config: {
      llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-problems', max_retries: 0 },
      authorization: { roles: [{ name: 'no-other', resources: ['*'], namespaces: [other.name], verbs: ['*'], effect: 'deny' }] },
    },
  });
  limited = await service.createUser('user', { roles: ['no-other'] });
  for (const namespace of [broken.name, other.name]) {
    await apply(podYaml('crasher'), namespace);
    await apply(
      `apiVersion: v1\nkind: Service\nmetadata: {name: lonely}\nspec:\n  selector: {app: nobody}\n  ports: [{port: 80, targetPort: 8080}]`,
      namespace,
    );
  }
  await apply(
    `apiVersion: v1\nkind: Pod\nmetadata: {name: nowhere}\nspec:\n  nodeSelector: {pilothouse-test: no-such-node}\n  containers: [{name: main, image: busybox}]`,
    broken.name,
  );
  await apply(
    `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  storageClassName: no-such-class\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}`,
    broken.name,
  );
  await apply(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: tight}\nspec: {hard: {configmaps: "1"}}`, broken.name);
  await apply(
    `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: ${webhookName}}
webhooks:
- name: check.${webhookName}.pilothouse.dev
  failurePolicy: Ignore
  sideEffects: None
  admissionReviewVersions: [v1]
  namespaceSelector: {matchLabels: {pilothouse-test-never: "true"}}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
  clientConfig: {service: {namespace: ${broken.name}, name: no-webhook-service, port: 443}}`,
  );
  for (const namespace of [broken.name, other.name]) {
    await waitFor(async () => (await kubectl('get', 'pod', 'crasher', '-n', namespace, '-o', 'jsonpath={.status.phase}')) === 'Running');
    await crashLoop(namespace, 'crasher');
  }
}, 120_000);

afterAll(async () => {
  await kubectl('delete', 'validatingwebhookconfiguration', webhookName, '--ignore-not-found');
  await service?.close();
  await wire?.close();
});

describe('problems of objects broken for real', () => {
  it('finds a crash loop with the last termination, its evidence and a read-only hint', async () => {
    const finding = await waitForFinding(broken.name, 'Pod', 'crasher', 'CrashLoopBackOff');
    expect(finding).toMatchObject({ cluster: 'home', analyzer: 'pod', severity: 'critical', object: { kind: 'Pod', namespace: broken.name, name: 'crasher' } });
    expect(finding.message).toContain('exit code 3');
    expect(finding.evidence).toContain('status.containerStatuses[main].state.waiting.reason: CrashLoopBackOff');
    expect(finding.hint).toBe(`kubectl logs crasher -n ${broken.name} -c main --previous`);
    expect(Date.parse(finding.since)).not.toBeNaN();
    // Its id is stable: asked again, the same finding has the same id and since.
    const again = await findingOf(broken.name, 'Pod', 'crasher', 'CrashLoopBackOff');
    expect(again).toMatchObject({ id: finding.id, since: finding.since });
  });

  it("finds an unschedulable pod with the scheduler's message", async () => {
    const finding = await waitForFinding(broken.name, 'Pod', 'nowhere', 'Unschedulable');
    expect(finding.severity).toBe('critical');
    expect(finding.message).toMatch(/node/i);
    expect(finding.evidence[0]).toMatch(/^status\.conditions\[PodScheduled\]: False, reason Unschedulable/);
  });

  it('finds a claim whose StorageClass does not exist, a quota at its limit and a webhook with no endpoint', async () => {
    expect((await waitForFinding(broken.name, 'PersistentVolumeClaim', 'data', 'StorageClassMissing')).severity).toBe('warning');
    // The namespace's kube-root-ca.crt ConfigMap already uses the one allowed.
    const quota = await waitForFinding(broken.name, 'ResourceQuota', 'tight', 'QuotaExhausted');
    expect(quota.evidence).toContain('status.hard.configmaps: 1');
    let webhook: Finding | undefined;
    await waitFor(async () => {
      webhook = (await problems('?kind=ValidatingWebhookConfiguration')).items.find((item) => item.object.name === webhookName);
      return webhook !== undefined;
    }, 60_000);
    expect(webhook).toMatchObject({ severity: 'warning', reason: 'ServiceMissing' });
    expect(webhook!.message).toContain('failurePolicy Ignore');
  });

  it('a Service whose selector matches no pod is found, and the finding goes away (list and stream) once a ready pod matches', async () => {
    const finding = await waitForFinding(broken.name, 'Service', 'lonely', 'NoPodsSelected');
    const response = await fetch(`${service.url}/api/problems/watch?namespace=${broken.name}&kind=Service`, {
      headers: { Authorization: `Bearer ${service.adminToken}` },
    });
    expect(response.status).toBe(200);
    const followed = followEvents<{ items?: Finding[]; item?: Finding }>(response);
    try {
      await waitFor(() => followed.events.some((event) => event.event === 'snapshot'));
      expect(followed.events[0]!.data.items!.map((item) => item.id)).toContain(finding.id);
      await apply(podYaml('server', '{app: nobody}'), broken.name);
      await waitFor(() => followed.events.some((event) => event.event === 'deleted' && event.data.item?.id === finding.id), 60_000);
      expect(await findingOf(broken.name, 'Service', 'lonely', 'NoPodsSelected')).toBeUndefined();
    } finally {
      await followed.close();
    }
  });
});

describe('who sees which findings', () => {
  it('a caller denied a namespace sees none of its findings in the list, the counts or the stream', async () => {
    await waitForFinding(other.name, 'Pod', 'crasher', 'CrashLoopBackOff');
    const seen = await problems('', limited.token);
    expect(seen.items.some((item) => item.object.namespace === other.name)).toBe(false);
    expect(seen.items.some((item) => item.object.namespace === broken.name)).toBe(true);
    const only = await problems(`?namespace=${other.name}`, limited.token);
    expect(only).toMatchObject({ items: [], total: 0, counts: { critical: 0, warning: 0, info: 0 } });
    const response = await fetch(`${service.url}/api/problems/watch`, { headers: { Authorization: `Bearer ${limited.token}` } });
    const followed = followEvents<{ items?: Finding[] }>(response);
    try {
      await waitFor(() => followed.events.some((event) => event.event === 'snapshot'));
      const snapshot = followed.events.find((event) => event.event === 'snapshot')!.data.items!;
      expect(snapshot.some((item) => item.object.namespace === broken.name)).toBe(true);
      expect(snapshot.some((item) => item.object.namespace === other.name)).toBe(false);
    } finally {
      await followed.close();
    }
  });

  it("the AI pilot's problems tool answers with the caller's view, without an approval", async () => {
    await waitForFinding(other.name, 'Pod', 'crasher', 'CrashLoopBackOff');
    const ask = async (token: string): Promise<{ status: string; result: string; prompt: string }> => {
      wire.reset();
      wire.script([{ toolCalls: [{ name: 'problems', arguments: { namespace: other.name }, id: 'call_problems' }] }, { text: ['Looked.'] }]);
      const run = await chat(service, { message: 'what is broken?', context: { namespace: other.name } }, { token });
      expect(run.status).toBe(200);
      expect(run.nth('tool_request')).toMatchObject({ tool: 'problems', requiresApproval: false, type: 'read' });
      const prompt = String((wire.chatRequests()[0]?.body as { messages: { content?: unknown }[] }).messages[0]?.content);
      return { ...run.nth('tool_execution'), prompt };
    };
    const admin = await ask(service.adminToken);
    expect(admin.status).toBe('executed');
    // The system prompt says how many findings the chat's namespace has (as the caller may see them).
    expect(admin.prompt).toMatch(new RegExp(`Pilothouse finds \\d+ problems in the namespace ${other.name} now \\([1-9]\\d* critical`));
    expect(JSON.parse(admin.result).items.some((item: Finding) => item.object.name === 'crasher' && item.reason === 'CrashLoopBackOff')).toBe(true);
    const theirs = await ask(limited.token);
    expect(theirs.status).toBe('executed');
    expect(JSON.parse(theirs.result)).toMatchObject({ total: 0, items: [] });
    expect(theirs.prompt).toContain(`Pilothouse finds no problems in the namespace ${other.name} now.`);
  });

  it('a chat about a finding (context.finding) quotes its evidence, only to a caller who may see it', async () => {
    const finding = await waitForFinding(other.name, 'Pod', 'crasher', 'CrashLoopBackOff');
    const promptOf = async (token: string): Promise<string> => {
      wire.reset();
      wire.script([{ text: ['Looked.'] }]);
      const run = await chat(service, { message: 'why?', context: { namespace: other.name, resource: 'Pod/crasher', finding: finding.id } }, { token });
      expect(run.status).toBe(200);
      return String((wire.chatRequests()[0]?.body as { messages: { content?: unknown }[] }).messages[0]?.content);
    };
    const admin = await promptOf(service.adminToken);
    expect(admin).toContain(`critical finding on Pod ${other.name}/crasher`);
    expect(admin).toContain('- status.containerStatuses[main].state.waiting.reason: CrashLoopBackOff');
    expect(admin).toContain(`Suggested read-only next step: kubectl logs crasher -n ${other.name} -c main --previous`);
    // Denied the namespace: the id alone is named, none of the finding's evidence.
    const theirs = await promptOf(limited.token);
    expect(theirs).toContain(`a finding (${finding.id}) that Pilothouse no longer finds`);
    expect(theirs).not.toContain('CrashLoopBackOff');
    const refused = await chat(service, { message: 'why?', context: { finding: 'not an id' } }, { token: service.adminToken });
    expect(refused.status).toBe(400);
  });

  it('GET /api/clusters carries the counts the caller may see; /metrics has pilothouse_problems', async () => {
    const counts = async (token: string): Promise<Record<string, number> | undefined> => {
      const response = await service.api('GET', '/api/clusters', { token });
      expect(response.status).toBe(200);
      return response.body.items.find((item: { name: string }) => item.name === 'home')?.problems;
    };
    await waitFor(async () => (await counts(service.adminToken)) !== undefined);
    const everyone = (await counts(service.adminToken))!;
    const theirs = (await counts(limited.token))!;
    expect(everyone.critical).toBeGreaterThan(theirs.critical ?? 0);
    expect(Object.keys(everyone).sort()).toEqual(['critical', 'info', 'warning']);
    const metrics = await service.api('GET', '/metrics', { token: service.adminToken });
    expect(metrics.text).toMatch(/^pilothouse_problems\{cluster="home",analyzer="pod",severity="critical"\} [1-9]/m);
  });

  it('filters by severity with counts of every severity, pages with continue, and refuses bad input with the error body', async () => {
    const all = await problems(`?namespace=${broken.name}`);
    const critical = await problems(`?namespace=${broken.name}&severity=critical`);
    expect(critical.items.every((item) => item.severity === 'critical')).toBe(true);
    expect(critical.counts).toEqual(all.counts);
    const first = await problems(`?namespace=${broken.name}&limit=1`);
    expect(first.items).toHaveLength(1);
    expect(first.continue).toBeDefined();
    const second = await problems(`?namespace=${broken.name}&limit=1&continue=${first.continue}`);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(second.items[0]!.id).toBe(all.items[1]!.id);
    for (const query of ['?severity=fatal', '?limit=0', '?continue=nonsense', '?kind=no%20such']) {
      const response = await service.api('GET', `/api/problems${query}`, { token: service.adminToken });
      expect(response.status, query).toBe(400);
      expect(response.body, query).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String), details: expect.any(Object) });
    }
    const unknown = await service.api('GET', '/api/problems?cluster=no-such-cluster', { token: service.adminToken });
    expect(unknown.status).toBe(404);
    expect((await service.api('GET', '/api/problems')).status).toBe(401);
  });
});
