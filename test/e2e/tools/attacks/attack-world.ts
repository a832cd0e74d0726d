import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { signingKeyFileName } from '../../../../src/auth/sessions/signing-key.js';
import type { ConfigInput } from '../../../../src/config/schema.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../../helpers/llm-wire/index.js';
import { startTestService, testAdminPassword, type TestService } from '../../../helpers/service.js';

/*
 * The world an attack file runs in: one Pilothouse (bash on, short tool and approval timeouts),
 * a victim namespace with objects the attacks try to change, sentinel files they try to
 * overwrite, a local "metadata" HTTP server that records every fetch, and the list of
 * credentials that must never appear in any output.
 */

export type AttackRole = 'user' | 'admin';
export const attackRoles: readonly AttackRole[] = ['user', 'admin'];

/** The LLM key of the attack services (a credential too). */
const llmKey = `sk-attack-${randomBytes(6).toString('hex')}`;

export interface AttackWorld {
  service: TestService;
  wire: LlmWireServer;
  /** The victim namespace: configmap `keep` (a=b), secret `db`, deployment `web`, pod `victim`. */
  namespace: string;
  /** Callers by role. */
  callers: Record<AttackRole, { username: string; token: string }>;
  /** The real API server's URL (from the test kubeconfig). */
  apiServer: string;
  /** The service's kubeconfig path (holds the cluster admin token). */
  serviceKubeconfig: string;
  dataDir: string;
  /** A folder outside the service (its files must not change). */
  scratch: string;
  /** A sentinel file in the data dir and one in `scratch`. */
  sentinel: { dataDir: string; outside: string };
  /** A ConfigMap manifest `pwned-file` in `scratch`. */
  manifest: string;
  /** Base URL of the recording HTTP server (serves a ConfigMap manifest on any path). */
  fetchUrl: string;
  /** Paths the recording HTTP server was asked for since the start. */
  fetches: string[];
  /** Strings that must never appear in any event, result or audit row. */
  credentials: string[];
  /** The cluster and file state every attack must leave as it found. */
  baseline: { cluster: string[]; files: string[] };
}

export interface AttackWorldOptions {
  /** Extra config (merged over the attack defaults); a function gets the victim namespace's name. */
  config?: ConfigInput | ((namespace: string) => ConfigInput);
  /** Impersonation on: `user` and `admin` act as service accounts of the victim namespace (read-only RBAC). */
  impersonation?: boolean;
}

function impersonationRbac(namespace: string): string {
  const account = (name: string) => `apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: ${name}, namespace: ${namespace}}\n`;
  const role = `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: ph-read, namespace: ${namespace}}\nrules:\n- {apiGroups: [""], resources: [configmaps, pods], verbs: [get, list, watch]}\n`;
  const binding = (name: string) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: ${name}, namespace: ${namespace}}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ph-read}\nsubjects: [{kind: ServiceAccount, name: ${name}, namespace: ${namespace}}]\n`;
  return [account('ph-user'), account('ph-admin'), role, binding('ph-user'), binding('ph-admin')].join('---\n');
}

const podJson = (name: string): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });
const configMapYaml = (name: string, namespace: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: ${namespace}}\ndata: {pwned: "yes"}\n`;

async function createVictims(namespace: string): Promise<void> {
  const kubeconfig = clusterKubeconfig();
  await runKubectl(kubeconfig, ['create', 'configmap', 'keep', '-n', namespace, '--from-literal=a=b']);
  await runKubectl(kubeconfig, ['create', 'secret', 'generic', 'db', '-n', namespace, '--from-literal=password=db-password']);
  await runKubectl(kubeconfig, ['create', 'deployment', 'web', '--image=nginx', '--replicas=1', '-n', namespace]);
  await applyYaml(kubeconfig, podJson('victim'), namespace);
  await waitFor(async () => (await runKubectl(kubeconfig, ['get', 'pod', 'victim', '-n', namespace, '-o', 'jsonpath={.status.phase}'])) === 'Running');
}

/** The credentials of the test kubeconfig: token, client key and certificate (base64 and a slice of the PEM body). */
function kubeconfigCredentials(path: string): string[] {
  const config = new KubeConfig();
  config.loadFromFile(path);
  const user = config.getCurrentUser();
  const found: string[] = [];
  if (user?.token) found.push(user.token);
  for (const data of [user?.keyData, user?.certData]) {
    if (!data) continue;
    const pem = Buffer.from(data, 'base64')
      .toString('utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('-----'));
    found.push(data, pem.join('').slice(20, 84));
  }
  return found;
}

/** Every state an attack must not change: the victim namespace's objects, kube-system, anything named pwned*. */
export async function clusterFingerprint(namespace: string): Promise<string[]> {
  const kinds = 'configmaps,secrets,pods,deployments,services,serviceaccounts,roles,rolebindings,jobs,clusterrolebindings,namespaces';
  const listed = JSON.parse(await runKubectl(clusterKubeconfig(), ['get', kinds, '-n', namespace, '-o', 'json'])).items as any[];
  const relevant = listed.filter((item) => {
    const name = String(item.metadata.name);
    if (item.kind === 'Namespace') return [namespace, 'kube-system', 'default'].includes(name) || name.startsWith('pwned');
    if (item.kind === 'ClusterRoleBinding') return name.startsWith('pwned');
    return item.metadata.namespace === namespace;
  });
  return relevant
    .map((item) => {
      const annotations = { ...item.metadata.annotations };
      delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
      const spec = item.spec ?? {};
      const template = spec.template ?? {};
      const shape = {
        labels: item.metadata.labels,
        annotations,
        data: item.data,
        replicas: spec.replicas,
        phase: item.kind === 'Namespace' ? item.status?.phase : undefined,
        template: template.metadata?.annotations,
        images: (template.spec ?? spec).containers?.map((container: { image: string }) => container.image),
      };
      return `${item.kind}/${item.metadata.name} ${JSON.stringify(shape)}`;
    })
    .sort();
}

const digest = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
/** SQLite's own files change with every audit row; the session sandboxes appear with the first bash call. */
const volatile = /^(pilothouse\.db(-wal|-shm|-journal)?|sandboxes)$/;

/** The files an attack must not change: sentinels, the signing key, the listings of the data dir and scratch; the store opens. */
export function fileFingerprint(world: Pick<AttackWorld, 'dataDir' | 'scratch' | 'sentinel'>): string[] {
  const listing = (folder: string) =>
    readdirSync(folder)
      .filter((name) => !volatile.test(name))
      .sort()
      .join(',');
  const database = new Database(join(world.dataDir, 'pilothouse.db'), { readonly: true, fileMustExist: true });
  let store: string;
  try {
    const check = database.pragma('quick_check', { simple: true });
    const rows = (database.prepare('SELECT COUNT(*) AS count FROM audit').get() as { count: number }).count;
    store = `store ${String(check)} ${rows > 0 ? 'has audit rows' : 'empty'}`;
  } finally {
    database.close();
  }
  return [
    `data dir: ${listing(world.dataDir)}`,
    `scratch: ${listing(world.scratch)}`,
    `sentinel in data dir: ${digest(world.sentinel.dataDir)}`,
    `sentinel outside: ${digest(world.sentinel.outside)}`,
    `signing key: ${digest(join(world.dataDir, signingKeyFileName))}`,
    store,
  ];
}

function startRecorder(fetches: string[], namespace: string): Promise<Server> {
  const server = createServer((request, response) => {
    fetches.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/yaml' });
    response.end(configMapYaml('pwned-fetched', namespace));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function serviceConfig(wire: LlmWireServer, namespace: string, options: AttackWorldOptions): ConfigInput {
  const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: llmKey, max_retries: 0 };
  const identity = (name: string) => `system:serviceaccount:${namespace}:${name}`;
  const impersonation = options.impersonation ? { enabled: true, mappings: { user: identity('ph-user'), admin: identity('ph-admin') } } : undefined;
  const extra = typeof options.config === 'function' ? options.config(namespace) : options.config;
  return {
    ...extra,
    llm: llm as never,
    tools: { timeout: '10s', bash: { enabled: true } },
    authorization: { ...extra?.authorization, tool_approval: { timeout: '3s' }, ...(impersonation ? { impersonation } : {}) },
  } as ConfigInput;
}

/**
 * Registers the hooks of an attack file (call at module level): the victim namespace, the service,
 * sentinels and the recorder before all tests; everything removed after. The holder is filled in beforeAll.
 */
export function useAttackWorld(prefix: string, options: AttackWorldOptions = {}): { world: AttackWorld } {
  const victim = useNamespace(prefix);
  const holder = {} as { world: AttackWorld };
  let recorder: Server | undefined;
  beforeAll(async () => {
    const namespace = victim.name;
    const fetches: string[] = [];
    recorder = await startRecorder(fetches, namespace);
    const wire = await startLlmWireServer();
    if (options.impersonation) await applyYaml(clusterKubeconfig(), impersonationRbac(namespace));
    await createVictims(namespace);
    const service = await startTestService({ config: serviceConfig(wire, namespace, options) });
    const scratch = mkdtempSync(join(tmpdir(), 'pilothouse-attack-'));
    const sentinel = { dataDir: join(service.dataDir, 'sentinel.txt'), outside: join(scratch, 'outside.txt') };
    writeFileSync(sentinel.dataDir, `data dir sentinel ${randomBytes(8).toString('hex')}\n`);
    writeFileSync(sentinel.outside, `outside sentinel ${randomBytes(8).toString('hex')}\n`);
    const manifest = join(scratch, 'manifest.yaml');
    writeFileSync(manifest, configMapYaml('pwned-file', namespace));
    const kubeconfig = new KubeConfig();
    kubeconfig.loadFromFile(clusterKubeconfig());
    const user = await service.createUser('user');
    const signingKey = readFileSync(join(service.dataDir, signingKeyFileName), 'utf8').trim();
    const files = { dataDir: service.dataDir, scratch, sentinel };
    holder.world = {
      service,
      wire,
      namespace,
      callers: { user, admin: { username: 'admin', token: service.adminToken } },
      apiServer: kubeconfig.getCurrentCluster()?.server ?? '',
      serviceKubeconfig: clusterKubeconfig(),
      ...files,
      manifest,
      fetchUrl: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`,
      fetches,
      credentials: [...kubeconfigCredentials(clusterKubeconfig()), signingKey, testAdminPassword, llmKey],
      baseline: { cluster: await clusterFingerprint(namespace), files: fileFingerprint(files) },
    };
  });
  afterAll(async () => {
    await holder.world?.service.close();
    await holder.world?.wire.close();
    recorder?.close();
    if (holder.world) rmSync(holder.world.scratch, { recursive: true, force: true });
  });
  return holder;
}
