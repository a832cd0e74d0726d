import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertmanager, startPrometheus, type RunningProcess } from '../../helpers/alerting.js';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { chat } from '../../helpers/chat-stream.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Issue 37: alerts from a real Prometheus and Alertmanager become Investigations, run read-only by the pilot.
const target = useNamespace('inv');
const webhookToken = 'inv-webhook-token-for-the-tests';
const kubeconfig = (): string => clusterKubeconfig();
let service: TestService;
let wire: LlmWireServer;
let sink: { server: Server; url: string; bodies: Array<Record<string, unknown>> };
let alertmanager: RunningProcess | undefined;
let prometheus: RunningProcess | undefined;
let alertname: string;
let concluded: any;

async function startSink(): Promise<typeof sink> {
  const bodies: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`, bodies };
}

async function investigations(token = service.adminToken): Promise<any[]> {
  const response = await service.api('GET', '/api/investigations', { token });
  expect(response.status).toBe(200);
  expect(response.body.total).toBe(response.body.items.length);
  return response.body.items;
}

async function waitForPhase(name: string, phase: string): Promise<any> {
  let found: any;
  await waitFor(async () => {
    found = (await service.api('GET', `/api/investigations/${name}`, { token: service.adminToken })).body;
    return found?.status?.phase === phase;
  }, 90_000);
  return found;
}

async function auditRows(query: string): Promise<any[]> {
  const response = await service.api('GET', `/api/audit?${query}&limit=100`, { token: service.adminToken });
  expect(response.status).toBe(200);
  return response.body.items;
}

function alertPayload(status: 'firing' | 'resolved', fingerprint: string, labels: Record<string, string>): Record<string, unknown> {
  return {
    version: '4',
    groupKey: '{}:{alertname="x"}',
    status,
    receiver: 'pilothouse',
    groupLabels: {},
    commonLabels: labels,
    commonAnnotations: {},
    externalURL: 'http://alertmanager.invalid',
    alerts: [
      { status, labels, annotations: { summary: 'test' }, startsAt: new Date().toISOString(), endsAt: '0001-01-01T00:00:00Z', generatorURL: '', fingerprint },
    ],
  };
}

const deliver = (body: unknown, token = webhookToken) =>
  service.api('POST', '/api/alerts/alertmanager', { body, headers: { Authorization: `Bearer ${token}` } });

beforeAll(async () => {
  wire = await startLlmWireServer();
  sink = await startSink();
  const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-investigations-test', max_retries: 0 };
  service = await startTestService({
    config: {
      llm: llm as never,
      investigations: {
        webhook_token: webhookToken,
        // The first investigation spends more than this: every later one is Skipped.
        daily_token_budget: 10,
        notifications: [{ type: 'webhook', url_secret: { name: 'investigation-sink', key: 'url' } }],
        allow_http: true,
        allow_private_urls: true,
      },
    } as never,
  });
  await runKubectl(kubeconfig(), ['create', 'secret', 'generic', 'investigation-sink', '-n', service.namespace, `--from-literal=url=${sink.url}`]);
  await runKubectl(kubeconfig(), ['create', 'deployment', 'web', '--image=nginx', '--replicas=1', '-n', target.name]);
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await alertmanager?.stop();
  await Promise.all([service?.close(), wire?.close()]);
  sink?.server.close();
});

const replicas = async (): Promise<string> => runKubectl(kubeconfig(), ['get', 'deployment', 'web', '-n', target.name, '-o', 'jsonpath={.spec.replicas}']);

describe('an alert from Prometheus through Alertmanager', () => {
  it('becomes an Investigation: the reads run, the write is refused and never runs, it concludes and is announced', async () => {
    alertname = `PilothouseTest${uniqueName('a').replace(/-/g, '')}`;
    wire.script([
      {
        toolCalls: [
          { name: 'kubectl', arguments: { command: `get deployment web -n ${target.name} -o name` } },
          { name: 'kubectl', arguments: { command: `scale deployment web --replicas=0 -n ${target.name}` } },
        ],
        // The provider's own count of the call, as real providers report it: what the daily budget adds up.
        usage: { input: 30, output: 5 },
      },
      {
        toolCalls: [
          {
            name: 'conclude',
            arguments: {
              summary: 'The web deployment is under-provisioned.',
              findings: [{ title: 'One replica only', detail: 'web runs a single replica', evidence: 'deployment.apps/web' }],
              suggestedActions: [{ command: `kubectl scale deployment web --replicas=3 -n ${target.name}`, rationale: 'more headroom' }],
            },
          },
        ],
        usage: { input: 40, output: 7 },
      },
    ]);
    const runbook = `apiVersion: v1
kind: ConfigMap
metadata: {name: web-runbook, namespace: ${service.namespace}, labels: {pilothouse.dev/runbook: "true"}}
data:
  runbook.md: |
    ---
    title: Web struggling
    match: {alertname: ${alertname}, kinds: [Deployment]}
    ---
    First check the replicas of web (runbook step one).
---
apiVersion: v1
kind: ConfigMap
metadata: {name: pilothouse-instructions, namespace: ${target.name}}
data:
  instructions.md: The web team owns this namespace; page them before scaling.
`;
    await runKubectl(kubeconfig(), ['apply', '-f', '-'], runbook);
    alertmanager = await startAlertmanager({ webhookUrl: `${service.url}/api/alerts/alertmanager`, bearerToken: webhookToken });
    prometheus = await startPrometheus({
      alertmanagerUrl: alertmanager.url,
      rules: [
        {
          alert: alertname,
          expr: 'vector(1)',
          labels: { severity: 'warning', namespace: target.name, deployment: 'web' },
          annotations: { summary: 'web is struggling' },
        },
      ],
    });
    let created: any;
    await waitFor(async () => {
      created = (await investigations()).find((item) => item.spec.alert?.labels.alertname === alertname);
      return created !== undefined;
    }, 90_000);
    expect(created.spec).toMatchObject({ requester: 'alertmanager', subject: { kind: 'Deployment', namespace: target.name, name: 'web' } });
    concluded = await waitForPhase(created.metadata.name, 'Concluded');
    expect(concluded.status).toMatchObject({
      summary: 'The web deployment is under-provisioned.',
      findings: [{ title: 'One replica only', evidence: 'deployment.apps/web' }],
      // Pilothouse's own class of the command, not the model's.
      suggestedActions: [{ command: `kubectl scale deployment web --replicas=3 -n ${target.name}`, class: 'write', rationale: 'more headroom' }],
      model: 'wire-model',
    });
    expect(concluded.status.tokens).toBeGreaterThan(0);
    // Its calls are in the usage store as `investigation`, where the daily budget reads them.
    const usage = await service.api('GET', '/api/usage?source=investigation', { token: service.adminToken });
    expect(usage.body.totals).toMatchObject({ inputTokens: 70, outputTokens: 12 });
    expect(concluded.status.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Concluded', status: 'True' })]));
    expect(await replicas()).toBe('1');
    const system = JSON.stringify((wire.chatRequests()[0]?.body as { messages: unknown[] }).messages[0]);
    expect(system).toContain('First check the replicas of web (runbook step one).');
    expect(system).toContain('The web team owns this namespace; page them before scaling.');
    expect(system).toContain('read-only');
    const toolResults = JSON.stringify(wire.chatRequests()[1]?.body);
    expect(toolResults).toContain('deployment.apps/web');
    expect(toolResults).toContain('this investigation is read-only');
    const actor = `investigation/${concluded.metadata.name}`;
    const rows = await auditRows(`user=${encodeURIComponent(actor)}`);
    const executes = rows.filter((row) => row.action === 'execute');
    expect(executes.map((row) => `${row.details.tool}:${row.details.status}`).sort()).toEqual(['conclude:executed', 'kubectl:executed', 'kubectl:forbidden']);
    for (const row of executes)
      expect(row.details).toMatchObject({ investigation: concluded.metadata.name, trigger: 'alert', fingerprint: concluded.spec.alert.fingerprint });
    expect(rows.find((row) => row.action === 'query')).toMatchObject({ details: { phase: 'Concluded', trigger: 'alert' }, outcome: 'success' });
    await waitFor(() => sink.bodies.some((body) => body.name === concluded.metadata.name));
    expect(sink.bodies.find((body) => body.name === concluded.metadata.name)).toMatchObject({
      phase: 'Concluded',
      trigger: 'alert',
      summary: concluded.status.summary,
    });
    const events = await runKubectl(kubeconfig(), [
      'get',
      'events',
      '-n',
      service.namespace,
      '--field-selector',
      `involvedObject.name=${concluded.metadata.name}`,
      '-o',
      'jsonpath={.items[*].reason}',
    ]);
    expect(events).toContain('Concluded');
    const metrics = await service.api('GET', '/metrics', { token: service.adminToken });
    expect(metrics.text).toMatch(/pilothouse_investigations_total\{cluster="[^"]+",phase="Concluded",trigger="alert"\} 1/);
  }, 180_000);

  it('is deduplicated by fingerprint within the cooldown, and a resolved alert sets AlertResolved', async () => {
    const labels = concluded.spec.alert.labels;
    const again = await deliver(alertPayload('firing', concluded.spec.alert.fingerprint, labels));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ created: [], deduplicated: [concluded.metadata.name], resolved: [] });
    expect((await investigations()).filter((item) => item.spec.alert?.fingerprint === concluded.spec.alert.fingerprint)).toHaveLength(1);
    const resolved = await deliver(alertPayload('resolved', concluded.spec.alert.fingerprint, labels));
    expect(resolved.body.resolved).toEqual([concluded.metadata.name]);
    await waitFor(async () => {
      const after = (await service.api('GET', `/api/investigations/${concluded.metadata.name}`, { token: service.adminToken })).body;
      return after.status.conditions.some((condition: any) => condition.type === 'AlertResolved' && condition.status === 'True');
    });
    const after = (await service.api('GET', `/api/investigations/${concluded.metadata.name}`, { token: service.adminToken })).body;
    expect(after.status).toMatchObject({ phase: 'Concluded', summary: concluded.status.summary });
  });

  it('refuses a bad webhook token with 401 and creates nothing', async () => {
    const before = (await investigations()).length;
    const refused = await deliver(alertPayload('firing', 'f00dfeedbeef0001', { alertname: 'Forged' }), 'not-the-token');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED' });
    const missing = await service.api('POST', '/api/alerts/alertmanager', { body: alertPayload('firing', 'f00dfeedbeef0002', { alertname: 'Forged' }) });
    expect(missing.status).toBe(401);
    // The token is checked before the body: a bad token with a malformed body is 401 too.
    expect((await deliver({ version: '3' }, 'not-the-token')).status).toBe(401);
    expect((await deliver({ version: '3' })).status).toBe(400);
    expect((await investigations()).length).toBe(before);
  });

  it('skips the next investigation once the daily token budget is spent, saying why', async () => {
    const requestsBefore = wire.chatRequests().length;
    const delivered = await deliver(alertPayload('firing', 'b0dgetb0dget0001', { alertname: `${alertname}Budget`, namespace: target.name }));
    expect(delivered.body.created).toHaveLength(1);
    const skipped = await waitForPhase(delivered.body.created[0], 'Skipped');
    expect(skipped.status.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'Skipped', status: 'True', reason: 'BudgetExhausted' })]),
    );
    expect(wire.chatRequests().length).toBe(requestsBefore);
  });
});

describe('a suggested action', () => {
  it('runs once, as the approving admin, audited; a role that may not run it gets 403 and a second approval 409', async () => {
    const path = `/api/investigations/${concluded.metadata.name}/actions/0/approve`;
    const viewer = await service.createUser('viewer');
    expect((await service.api('POST', path, { token: viewer.token })).status).toBe(403);
    const user = await service.createUser('user');
    const byUser = await service.api('POST', path, { token: user.token });
    expect(byUser.status).toBe(403);
    expect(byUser.body).toMatchObject({ code: 'FORBIDDEN' });
    expect(await replicas()).toBe('1');
    const approved = await service.api('POST', path, { token: service.adminToken });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ index: 0, status: 'executed', approvedBy: 'admin' });
    expect(await replicas()).toBe('3');
    const second = await service.api('POST', path, { token: service.adminToken });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'CONFLICT' });
    const rows = (await auditRows('user=admin')).filter((row) => row.details.investigation === concluded.metadata.name);
    expect(rows.map((row) => `${row.action}:${row.decision}`).sort()).toEqual(['approve:allow', 'execute:allow']);
    const after = (await service.api('GET', `/api/investigations/${concluded.metadata.name}`, { token: service.adminToken })).body;
    expect(after.status.suggestedActions[0]).toMatchObject({ approvedBy: 'admin', outcome: 'success' });
  }, 60_000);
});

describe('runbooks and per-namespace instructions in chats', () => {
  it('give a chat about the namespace its instructions, and the runbook tool lists and reads runbooks', async () => {
    wire.script([{ toolCalls: [{ name: 'runbook', arguments: { action: 'read', name: 'web-runbook' } }] }, { text: ['Done.'] }]);
    const run = await chat(service, { message: 'what about web?', context: { namespace: target.name } }, { token: service.adminToken });
    expect(run.nth('tool_execution')).toMatchObject({ status: 'executed', result: expect.stringContaining('runbook step one') });
    const requests = wire.chatRequests();
    const system = JSON.stringify((requests.at(-2)?.body as { messages: unknown[] }).messages[0]);
    expect(system).toContain('The web team owns this namespace; page them before scaling.');
  });
});

describe('Investigations asked through the API and kubectl', () => {
  it('records the asking user as requester; an unknown cluster is 404', async () => {
    const user = await service.createUser('user');
    const created = await service.api('POST', '/api/investigations', {
      token: user.token,
      body: { question: 'Why is web slow?', subject: { kind: 'Deployment', namespace: target.name, name: 'web' } },
    });
    expect(created.status).toBe(201);
    expect(created.body.spec).toMatchObject({ requester: user.username, question: 'Why is web slow?' });
    expect((await investigations(user.token)).map((item) => item.metadata.name)).toContain(created.body.metadata.name);
    const unknown = await service.api('POST', '/api/investigations', { token: user.token, body: { question: 'x', cluster: 'no-such-cluster' } });
    expect(unknown.status).toBe(404);
    expect((await service.api('POST', '/api/investigations', { token: user.token, body: { question: '' } })).status).toBe(400);
  });

  it('kubectl apply by a namespace user works with the creator as requester (pinned by admission)', async () => {
    const person = uniqueName('inv-user');
    const grant = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: investigation-writers, namespace: ${service.namespace}}
rules: [{apiGroups: [pilothouse.dev], resources: [investigations], verbs: [create, get, list, patch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: investigation-writers, namespace: ${service.namespace}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: investigation-writers}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: ${person}}]
`;
    await runKubectl(kubeconfig(), ['apply', '-f', '-'], grant);
    const manifest = (name: string, requester: string): string => `apiVersion: pilothouse.dev/v1alpha1
kind: Investigation
metadata: {name: ${name}, namespace: ${service.namespace}}
spec: {question: "What is wrong with web?", subject: {kind: Deployment, namespace: ${target.name}, name: web}, requester: ${requester}}
`;
    await waitFor(async () => {
      const forged = await tryKubectl(kubeconfig(), ['--as', person, 'apply', '-f', '-'], manifest('forged', 'admin'));
      return forged.code !== 0 && forged.stderr.includes(`spec.requester must be the creating user (${person})`);
    });
    await runKubectl(kubeconfig(), ['--as', person, 'apply', '-f', '-'], manifest('by-kubectl', person));
    const reconciled = await waitForPhase('by-kubectl', 'Skipped');
    expect(reconciled.spec.requester).toBe(person);
    const columns = await runKubectl(kubeconfig(), ['get', 'investigations', 'by-kubectl', '-n', service.namespace]);
    expect(columns).toMatch(/PHASE[\s\S]*Skipped/);
  }, 60_000);
});
