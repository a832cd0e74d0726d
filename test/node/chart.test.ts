// The chart on a real node (make test-node): charts/pilothouse installed with its defaults plus the
// real node's selector and toleration, run by a real kubelet + containerd from the image that
// `make image` built, reached through its Service's ClusterIP (kube-proxy) from this host.
// The tests run in order and share the release; they need `make cluster-node` (NODE_KUBECONFIG).
// The release's LLM is this host's LLM front (llm-front.ts): the scripted wire server, or a hanging one.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { uniqueName, waitFor } from '../helpers/cluster.js';
import { runKubectl, tryKubectl } from '../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../helpers/llm-wire/index.js';
import { samplesUntil, startPrometheus } from '../helpers/prometheus.js';
import { rootDirectory, toolPath } from '../helpers/paths.js';
import { startLlmFront, type LlmFront } from './llm-front.js';

const kubeconfig = process.env.NODE_KUBECONFIG ?? join(rootDirectory, '.cluster', 'kubeconfig');
const namespace = uniqueName('node-chart');
const release = 'ph';
const fullname = `${release}-pilothouse`;
const chart = join(rootDirectory, 'charts', 'pilothouse');
const onRealNode = [
  '--set-string',
  'nodeSelector.node\\.pilothouse\\.dev/real=true',
  '--set',
  'tolerations[0].key=node.pilothouse.dev/real,tolerations[0].operator=Exists,tolerations[0].effect=NoSchedule',
];

interface HttpAnswer {
  status: number;
  body: string;
}

let wire: LlmWireServer;
let front: LlmFront;
/** The node's InternalIP: this host, as pods on the node reach it. */
let hostAddress: string;

/** The chart's config: the LLM is the front on this host (an OpenAI-compatible base URL). */
function llmValues(): string[] {
  const llm = { provider: 'openai', model: 'scripted', api_key: 'node-test', base_url: `http://${hostAddress}:${front.port}/v1`, max_retries: 0 };
  return ['--set-json', `config=${JSON.stringify({ llm })}`];
}

function helm(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(toolPath('helm'), ['--kubeconfig', kubeconfig, ...args], { maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`helm ${args.join(' ')} failed: ${stderr}`));
      else resolve(stdout);
    });
  });
}

async function kubectlJson<T>(args: string[]): Promise<T> {
  return JSON.parse(await runKubectl(kubeconfig, [...args, '-o', 'json'])) as T;
}

interface PodList {
  items: Array<{
    metadata: { name: string };
    spec: {
      nodeName?: string;
      securityContext?: { runAsUser?: number };
      containers: Array<{ readinessProbe?: unknown; livenessProbe?: unknown; startupProbe?: unknown; resources?: { limits?: { memory?: string } } }>;
    };
    status: {
      podIP?: string;
      conditions?: Array<{ type: string; status: string }>;
      containerStatuses?: Array<{ ready: boolean; restartCount: number; started?: boolean }>;
    };
  }>;
}

function podsOfRelease(): Promise<PodList> {
  return kubectlJson<PodList>(['get', 'pods', '-n', namespace, '-l', `app.kubernetes.io/instance=${release}`]);
}

async function readyPod(): Promise<PodList['items'][number]> {
  const pods = (await podsOfRelease()).items.filter((pod) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
  expect(pods).toHaveLength(1);
  return pods[0]!;
}

interface ServiceCallOptions {
  token?: string;
  body?: unknown;
  timeoutMs?: number;
  /** Called with the body read so far, at each chunk (an SSE stream). */
  onChunk?(bodySoFar: string): void;
}

/** An HTTP call to the Service's ClusterIP from this host, with the Service's DNS name as Host (the chart's allowlist). */
async function throughService(method: string, path: string, options: ServiceCallOptions = {}): Promise<HttpAnswer> {
  const clusterIp = (await runKubectl(kubeconfig, ['get', 'service', fullname, '-n', namespace, '-o', 'jsonpath={.spec.clusterIP}'])).trim();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { Host: `${fullname}.${namespace}.svc` };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (payload) headers['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const call = request({ host: clusterIp, port: 80, method, path, headers, timeout: options.timeoutMs ?? 10_000 }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
        options.onChunk?.(body);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on('timeout', () => call.destroy(new Error(`${method} ${path}: timeout`)));
    call.on('error', reject);
    call.end(payload);
  });
}

async function adminPassword(): Promise<string> {
  const encoded = await runKubectl(kubeconfig, ['get', 'secret', fullname, '-n', namespace, '-o', 'jsonpath={.data.admin-password}']);
  return Buffer.from(encoded, 'base64').toString();
}

async function login(): Promise<string> {
  const answer = await throughService('POST', '/api/auth/login', { body: { password: await adminPassword() } });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { token: string }).token;
}

interface AuditPage {
  items: Array<{ id?: unknown; timestamp?: string; action: string; user?: string }>;
  total: number;
}

async function loginAudit(token: string): Promise<AuditPage> {
  const answer = await throughService('GET', '/api/audit?action=login&limit=100', { token });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as AuditPage;
}

/** Runs `node --input-type=module -e script` in the Pilothouse container and returns its stdout. */
async function nodeInPod(script: string): Promise<string> {
  const pod = await readyPod();
  return runKubectl(kubeconfig, ['exec', '-n', namespace, pod.metadata.name, '--', 'node', '--input-type=module', '-e', script]);
}

interface SseEvent {
  event: string;
  data: { id?: string; requiresApproval?: boolean; status?: string; result?: string };
}

function sseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    const name = /^event: ?(.*)$/m.exec(block)?.[1];
    const data = /^data: ?(.*)$/m.exec(block)?.[1];
    if (name && data) events.push({ event: name, data: JSON.parse(data) as SseEvent['data'] });
  }
  return events;
}

/** One chat turn through the Service; a tool call that asks for approval is approved by the admin. */
async function chatThroughService(message: string, token: string): Promise<SseEvent[]> {
  const approved = new Set<string>();
  const approvals: Promise<HttpAnswer>[] = [];
  const answer = await throughService('POST', '/api/chat/agentic', {
    token,
    body: { message, context: {} },
    timeoutMs: 60_000,
    onChunk: (soFar) => {
      for (const event of sseEvents(soFar)) {
        if (event.event !== 'tool_request' || !event.data.requiresApproval || approved.has(event.data.id!)) continue;
        approved.add(event.data.id!);
        approvals.push(throughService('POST', '/api/tool/approve', { token, body: { id: event.data.id, approved: true } }));
      }
    },
  });
  expect(answer.status).toBe(200);
  for (const approval of await Promise.all(approvals)) expect(approval.status).toBe(200);
  return sseEvents(answer.body);
}

describe('the chart on the real node', () => {
  beforeAll(async () => {
    const node = await tryKubectl(kubeconfig, ['get', 'node', '-l', 'node.pilothouse.dev/real=true', '-o', 'name']);
    if (node.code !== 0 || node.stdout.trim() === '') throw new Error('no real node in the cluster: run make cluster-node (make test-node does)');
    const nodeName = node.stdout.trim();
    hostAddress = (await runKubectl(kubeconfig, ['get', nodeName, '-o', 'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}'])).trim();
    wire = await startLlmWireServer();
    front = await startLlmFront(hostAddress, Number(new URL(wire.url).port));
  });

  afterAll(async () => {
    await helm(['uninstall', release, '-n', namespace, '--wait']).catch(() => undefined);
    await tryKubectl(kubeconfig, ['delete', 'namespace', namespace, '--wait=false']);
    await front?.close();
    await wire?.close();
  });

  test('helm install with the defaults gives a pod on the real node, Ready by its own probes, with its volume bound', async () => {
    const started = Date.now();
    await helm(['install', release, chart, '-n', namespace, '--create-namespace', ...onRealNode, ...llmValues(), '--wait', '--timeout', '5m']);
    console.log(`node figures: helm install to Ready ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const pod = await readyPod();
    expect(pod.spec.nodeName).toBe('real-node');
    // A pod IP from the node's bridge CNI (KWOK pods get 10.244.x.x).
    expect(pod.status.podIP).toMatch(/^10\.88\./);
    const container = pod.spec.containers[0]!;
    expect(container.readinessProbe).toBeDefined();
    expect(container.livenessProbe).toBeDefined();
    expect(pod.status.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 0 });
    const claims = await kubectlJson<{ items: Array<{ status: { phase: string }; spec: { storageClassName?: string } }> }>([
      'get',
      'pvc',
      '-n',
      namespace,
      '-l',
      `app.kubernetes.io/instance=${release}`,
    ]);
    expect(claims.items.map((claim) => claim.status.phase)).toEqual(['Bound']);
    expect(claims.items[0]!.spec.storageClassName).toBe('local-path');
  });

  test('kubectl exec runs inside the container as its non-root user', async () => {
    const pod = await readyPod();
    const runAsUser = pod.spec.securityContext?.runAsUser;
    expect(runAsUser).toBeGreaterThan(0);
    const out = await runKubectl(kubeconfig, [
      'exec',
      '-n',
      namespace,
      pod.metadata.name,
      '--',
      'node',
      '-e',
      'console.log(JSON.stringify({ uid: process.getuid(), host: require("os").hostname() }))',
    ]);
    // KWOK would run the command on this host as root; a real container has the pod's name and user.
    expect(JSON.parse(out)).toEqual({ uid: runAsUser, host: pod.metadata.name });
    // The service's memory after start (PID 1 of the container): at most half the chart's limit (1Gi).
    const status = await runKubectl(kubeconfig, ['exec', '-n', namespace, pod.metadata.name, '--', 'cat', '/proc/1/status']);
    const rssMiB = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) / 1024;
    console.log(`node figures: pod memory after start (VmRSS of PID 1) ${rssMiB.toFixed(0)} MiB`);
    expect(rssMiB).toBeGreaterThan(20);
    const limit = pod.spec.containers[0]?.resources?.limits?.memory ?? '';
    expect(limit).toMatch(/^\d+(Mi|Gi)$/);
    const limitMiB = Number.parseInt(limit, 10) * (limit.endsWith('Gi') ? 1024 : 1);
    expect(rssMiB).toBeLessThanOrEqual(limitMiB / 2);
  });

  test('through the Service: health, login with the chart admin Secret, a cluster read, /metrics', async () => {
    const health = await throughService('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ kubernetes: 'connected' });
    const token = await login();
    const pods = await throughService('GET', `/api/k8s/pods?namespace=${namespace}`, { token });
    expect(pods.status).toBe(200);
    const names = (JSON.parse(pods.body) as { items: Array<{ name?: string; metadata?: { name: string } }> }).items.map(
      (item) => item.name ?? item.metadata?.name,
    );
    expect(names).toContain((await readyPod()).metadata.name);
    const metrics = await throughService('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^# (HELP|TYPE) /m);
    expect(metrics.body).toContain('process_cpu');
  });

  test('the API from inside the pod: its own port and the Service ClusterIP from the variables the kubelet injects', async () => {
    const variable = fullname.toUpperCase().replaceAll('-', '_');
    const script = `
      import { request } from 'node:http';
      const call = (host, port, path, method = 'GET', body) => new Promise((resolve, reject) => {
        const headers = { host: '${fullname}.${namespace}.svc', 'content-type': 'application/json' };
        const req = request({ host, port, path, method, headers, timeout: 10000 }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
      const service = [process.env.${variable}_SERVICE_HOST, Number(process.env.${variable}_SERVICE_PORT)];
      const local = await call('127.0.0.1', 8080, '/api/readyz');
      const password = (await import('node:fs')).readFileSync('/var/run/secrets/pilothouse/admin-password', 'utf8');
      const login = await call(...service, '/api/auth/login', 'POST', JSON.stringify({ username: 'admin', password }));
      console.log(JSON.stringify({ service, local: [local.status, JSON.parse(local.text)], login: login.status }));`;
    const out = JSON.parse(await nodeInPod(script)) as { service: [string, number]; local: [number, unknown]; login: number };
    const clusterIp = (await runKubectl(kubeconfig, ['get', 'service', fullname, '-n', namespace, '-o', 'jsonpath={.spec.clusterIP}'])).trim();
    expect(out.service).toEqual([clusterIp, 80]);
    expect(out.local).toEqual([200, { status: 'ready', kubernetes: 'connected', store: 'ok' }]);
    expect(out.login).toBe(200);
  });

  test('an AccessRequest applied with kubectl is reconciled by the in-cluster leader: conditions, Events, kubectl wait', async () => {
    const token = await login();
    const requester = 'node-user';
    const created = await throughService('POST', '/api/admin/users', {
      token,
      body: { username: requester, password: 'password-of-node-user', role: 'user', roles: [] },
    });
    expect(created.status).toBe(201);
    const name = 'from-kubectl';
    const object = `apiVersion: pilothouse.dev/v1alpha1\nkind: AccessRequest\nmetadata: {name: ${name}}\nspec: {requester: ${requester}, permission: execute_write, ttl: 2h, reason: node}\n`;
    // Filed for another user: as Pilothouse's ServiceAccount (anyone else must name themselves, the requester policy).
    await runKubectl(kubeconfig, ['--as', `system:serviceaccount:${namespace}:${fullname}`, 'apply', '-n', namespace, '-f', '-'], object);
    const kubectl = (args: string[]): Promise<string> => runKubectl(kubeconfig, [...args, '-n', namespace]);
    await kubectl(['wait', '--for=condition=Approved=Unknown', `accessrequest/${name}`, '--timeout=60s']);
    const waited = kubectl(['wait', '--for=condition=Approved', `accessrequest/${name}`, '--timeout=90s']);
    const approved = await throughService('POST', `/api/access-requests/${name}/approve`, { token, body: {} });
    expect(approved.status).toBe(200);
    expect(await waited).toMatch(/condition met/);
    const status = (JSON.parse(await kubectl(['get', 'accessrequest', name, '-o', 'json'])) as { status: { phase: string; conditions: unknown[] } }).status;
    expect(status.phase).toBe('Approved');
    expect(status.conditions).toEqual([expect.objectContaining({ type: 'Approved', status: 'True', reason: 'Approved', observedGeneration: 1 })]);
    let events: Array<{ reason: string; reportingComponent: string }> = [];
    await waitFor(
      async () => {
        events = (JSON.parse(await kubectl(['get', 'events', '--field-selector', `involvedObject.name=${name}`, '-o', 'json'])) as { items: typeof events })
          .items;
        return events.some((event) => event.reason === 'Approved');
      },
      30_000,
      1_000,
    );
    expect(events.map((event) => event.reason)).toEqual(expect.arrayContaining(['Pending', 'Approved']));
    for (const event of events) expect(event.reportingComponent).toBe('pilothouse.dev/controller');
    // The pod leads (its Lease) and counted the reconciles.
    const metrics = (await throughService('GET', '/metrics')).body;
    expect(metrics).toMatch(/^pilothouse_leader 1$/m);
    expect(metrics).toMatch(/^pilothouse_controller_reconciles_total\{controller="accessrequest",result="success"\} [1-9]/m);
  }, 180_000);

  test('finds a Prometheus by its label and answers usage history through the API server service proxy', async () => {
    // A real Prometheus on this host (Debian's binary cannot run in a pod image here). The API server's service proxy
    // only goes to addresses that are a pod's IP, so a hostNetwork pod on the real node (its IP is the node's, this
    // host's) stands for it: the Service selects that pod, and its targetPort is Prometheus' port on the host. The
    // Pilothouse pod reaches Prometheus only through the proxy, as its own identity.
    const pod = await readyPod();
    const now = Math.floor(Date.now() / 1000);
    const labels = { namespace, pod: pod.metadata.name, container: 'pilothouse' };
    const image = (await runKubectl(kubeconfig, ['get', 'pod', pod.metadata.name, '-n', namespace, '-o', 'jsonpath={.spec.containers[0].image}'])).trim();
    const prometheus = await startPrometheus({
      host: hostAddress,
      series: [{ name: 'container_memory_working_set_bytes', labels, samples: samplesUntil(now, 3600, 30, () => 123_456_789) }],
    });
    const objects = `apiVersion: v1
kind: Pod
metadata: {name: history-prometheus-host, labels: {app: history-prometheus-host}}
spec:
  hostNetwork: true
  nodeSelector: {node.pilothouse.dev/real: "true"}
  tolerations: [{key: node.pilothouse.dev/real, operator: Exists, effect: NoSchedule}]
  containers: [{name: hold, image: "${image}", imagePullPolicy: IfNotPresent, command: [node, -e, "setInterval(() => {}, 1 << 30)"]}]
---
apiVersion: v1
kind: Service
metadata: {name: history-prometheus, labels: {pilothouse.dev/prometheus: "true"}}
spec: {selector: {app: history-prometheus-host}, ports: [{name: http, port: 9090, targetPort: ${prometheus.port}}]}
`;
    type Clusters = { items: Array<{ history?: { available: boolean; source: string; where?: string; reason?: string } }> };
    let history: Clusters['items'][number]['history'];
    try {
      await runKubectl(kubeconfig, ['apply', '-n', namespace, '-f', '-'], objects);
      await runKubectl(kubeconfig, ['wait', '-n', namespace, '--for=condition=Ready', 'pod/history-prometheus-host', '--timeout=120s']);
      const token = await login();
      // Detection and the reachability check are kept for a minute: wait for the next one.
      await waitFor(
        async () => {
          history = (JSON.parse((await throughService('GET', '/api/clusters', { token })).body) as Clusters).items[0]?.history;
          return history?.available === true;
        },
        150_000,
        2_000,
      ).catch(async (error: unknown) => {
        const proxy = `/api/v1/namespaces/${namespace}/services/history-prometheus:http/proxy/api/v1/query?query=vector(1)`;
        const direct = await tryKubectl(kubeconfig, ['get', '--raw', proxy]);
        const endpoints = await tryKubectl(kubeconfig, ['get', 'endpointslices', '-n', namespace, '-o', 'wide']);
        throw new Error(`${String(error)}; history: ${JSON.stringify(history)}; the proxy as admin: ${direct.stdout}${direct.stderr}; ${endpoints.stdout}`);
      });
      expect(history).toMatchObject({ available: true, source: 'detected', where: `service ${namespace}/history-prometheus:http` });
      const answer = await throughService('GET', `/api/metrics/history?kind=pod&namespace=${namespace}&name=${pod.metadata.name}&range=1h`, { token });
      expect(answer.status, answer.body).toBe(200);
      const body = JSON.parse(answer.body) as { source: string; series: Array<{ name: string; points: [number, number][] }> };
      expect(body.source).toBe('prometheus');
      expect(body.series.find((series) => series.name === 'memory')?.points.at(-1)?.[1]).toBe(123_456_789);
      const query = await throughService('POST', '/api/prometheus/query', { token, body: { query: 'container_memory_working_set_bytes' } });
      expect(query.status, query.body).toBe(200);
      expect(JSON.parse(query.body)).toMatchObject({
        resultType: 'vector',
        result: [expect.objectContaining({ metric: expect.objectContaining({ pod: pod.metadata.name }) })],
      });
    } finally {
      await tryKubectl(kubeconfig, [
        'delete',
        '-n',
        namespace,
        'service/history-prometheus',
        'pod/history-prometheus-host',
        '--ignore-not-found',
        '--wait=false',
      ]);
      await prometheus.stop();
    }
  }, 300_000);

  test('a hanging LLM does not restart the pod: /api/health reports within its limit, the pod stays Ready', async () => {
    front.setMode('hang');
    try {
      const podName = (await readyPod()).metadata.name;
      // Two liveness periods (20 s) and five readiness periods (10 s), asking /api/health (which checks the LLM) throughout.
      const until = Date.now() + 50_000;
      const llm = new Set<string>();
      while (Date.now() < until) {
        // It answers (the client gives up at 15 s) although the LLM hangs: the LLM check ends at its own limit.
        const health = await throughService('GET', '/api/health', { timeoutMs: 15_000 });
        expect(health.status).toBe(200);
        const report = JSON.parse(health.body) as { kubernetes: string; llm: string };
        expect(report.kubernetes).toBe('connected');
        llm.add(report.llm);
        const pod = await readyPod();
        expect(pod.metadata.name).toBe(podName);
        expect(pod.status.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 0 });
        await sleep(5_000);
      }
      // The LLM was really asked, never answered, and health said so.
      expect(front.accepted()).toBeGreaterThan(0);
      expect(llm).toContain('unavailable');
    } finally {
      front.setMode('wire');
    }
  }, 120_000);

  test('a chat through the Service reaches the scripted LLM on this host; the bash tool (off by default) is not offered', async () => {
    wire.reset();
    wire.script([{ text: ['Hello ', 'from the node.'] }]);
    const events = await chatThroughService('Hi', await login());
    const text = events.filter((event) => event.event === 'chunk').map((event) => (event.data as { content?: string }).content);
    expect(text.join('')).toBe('Hello from the node.');
    expect(events.at(-1)?.event).toBe('stream_end');
    const offered = JSON.stringify((wire.chatRequests()[0]?.body as { tools?: unknown } | undefined)?.tools ?? []);
    expect(wire.chatRequests()).toHaveLength(1);
    expect(offered).not.toContain('"bash"');
  }, 120_000);

  test('helm test logs in and lists pods through the Service', async () => {
    const out = await helm(['test', release, '-n', namespace, '--timeout', '3m']);
    expect(out).toMatch(/TEST SUITE:\s+\S+-test-login[\s\S]*Phase:\s+Succeeded/);
  }, 240_000);

  test('helm upgrade keeps the audit rows (and the admin password) across the new pod', async () => {
    const before = await loginAudit(await login());
    expect(before.total).toBeGreaterThanOrEqual(2);
    const oldPod = (await readyPod()).metadata.name;
    await helm(['upgrade', release, chart, '-n', namespace, '--reuse-values', '--set-string', 'podAnnotations.upgraded=yes', '--wait', '--timeout', '5m']);
    await waitFor(
      async () => {
        const pods = (await podsOfRelease()).items;
        return pods.length === 1 && pods[0]!.metadata.name !== oldPod && pods[0]!.status.containerStatuses?.[0]?.ready === true;
      },
      180_000,
      1_000,
    );
    const after = await loginAudit(await login());
    expect(after.total).toBe(before.total + 1);
    for (const row of before.items) expect(after.items).toContainEqual(row);
  });

  test('helm upgrade with tools.bash.enabled: the pod is Ready, and the bash tool runs in it (an empty /proc on containerd 1.6), lists pods through the policy proxy, and has no network', async () => {
    const oldPod = (await readyPod()).metadata.name;
    await helm(['upgrade', release, chart, '-n', namespace, '--reuse-values', '--set', 'tools.bash.enabled=true', '--wait', '--timeout', '5m']);
    await waitFor(
      async () => {
        const pods = (await podsOfRelease()).items;
        return pods.length === 1 && pods[0]!.metadata.name !== oldPod && pods[0]!.status.containerStatuses?.[0]?.ready === true;
      },
      180_000,
      1_000,
    );
    const pod = await readyPod();
    // runc masks parts of /proc and the kernel refuses a fresh one: the start probe chose the empty /proc.
    const health = JSON.parse((await throughService('GET', '/api/health')).body) as { details: { bashSandbox: unknown } };
    expect(health.details.bashSandbox).toEqual({ status: 'available', proc: 'empty' });
    const token = await login();
    const bash = async (command: string): Promise<{ status?: string; result?: string }> => {
      wire.reset();
      wire.script([{ toolCalls: [{ name: 'bash', arguments: { command } }] }, { text: ['Done.'] }]);
      const events = await chatThroughService('Run it', token);
      const offered = JSON.stringify((wire.chatRequests()[0]?.body as { tools?: unknown } | undefined)?.tools ?? []);
      expect(offered).toContain('"bash"');
      const execution = events.find((event) => event.event === 'tool_execution');
      expect(execution, JSON.stringify(events)).toBeDefined();
      return execution!.data;
    };
    const listed = await bash(`kubectl get pods -n ${namespace} -o name; ls /proc | wc -l`);
    expect(listed.status, listed.result).toBe('executed');
    expect(listed.result).toContain(`pod/${pod.metadata.name}`);
    expect(listed.result?.trim().split('\n').at(-1)).toBe('0');
    // The Service is reachable from this host (the calls above) and from the pod, but not from the sandbox.
    const clusterIp = (await runKubectl(kubeconfig, ['get', 'service', fullname, '-n', namespace, '-o', 'jsonpath={.spec.clusterIP}'])).trim();
    const network = await bash(`(exec 3<>/dev/tcp/${clusterIp}/80) 2>&1 && echo CONNECTED || echo BLOCKED`);
    expect(network.result).toContain('BLOCKED');
    expect(network.result).not.toContain('CONNECTED');
    expect((await podsOfRelease()).items[0]!.status.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 0 });
  }, 360_000);

  test('helm uninstall leaves nothing of the release but the CRDs, and gives the volume back', async () => {
    const crdsBefore = await runKubectl(kubeconfig, ['get', 'crd', '-o', 'name']);
    await helm(['uninstall', release, '-n', namespace, '--wait', '--timeout', '3m']);
    const selector = `app.kubernetes.io/instance=${release}`;
    const kinds = 'all,configmaps,secrets,pvc,serviceaccounts,roles,rolebindings,poddisruptionbudgets,networkpolicies,ingresses';
    let left = '';
    await waitFor(
      async () => {
        left = (await runKubectl(kubeconfig, ['get', kinds, '-n', namespace, '-l', selector, '-o', 'name'])).trim();
        return left === '';
      },
      120_000,
      1_000,
    );
    // persistence.keepOnUninstall is off by default: the store's claim goes with the release.
    expect(left).toBe('');
    expect(await runKubectl(kubeconfig, ['get', 'clusterroles,clusterrolebindings', '-l', selector, '-o', 'name'])).toBe('');
    // Helm keeps CRDs (crds/ directory): they stay, and so does every other one.
    const crdsAfter = await runKubectl(kubeconfig, ['get', 'crd', '-o', 'name']);
    expect(crdsAfter).toBe(crdsBefore);
    expect(crdsAfter).toMatch(/accessrequests\./);
    // The released volume is given back (the node's provisioner deletes it).
    await waitFor(
      async () => !(await runKubectl(kubeconfig, ['get', 'pv', '-o', 'jsonpath={.items[*].spec.claimRef.namespace}'])).includes(namespace),
      60_000,
      1_000,
    );
  });
});
