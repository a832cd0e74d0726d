import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../../../src/kube/clients.js';
import { ClusterSecretWatch, type ClusterSecretSource, type ClusterSecretTarget } from '../../../src/clusters/secret-watch.js';
import type { SecretsProvider } from '../../../src/clusters/secrets-provider.js';
import { RestClient } from '../../../src/kube/rest-client.js';
import { createLogger } from '../../../src/log.js';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { useSecondCluster } from '../../helpers/second-cluster.js';
import { followEvents } from '../../helpers/sse-follow.js';
import { startTestService, type ApiResponse, type TestService } from '../../helpers/service.js';

// Cluster Secrets (ADR 0035): labelled Secrets in Pilothouse's namespace of the home cluster (the shared test
// cluster) register more clusters, live. The second cluster is a real one of its own, started for this file.

const namespace = useNamespace('cluster-secrets');
const second = useSecondCluster();

interface Reported {
  action: 'put' | 'remove';
  name: string;
  source?: ClusterSecretSource;
}

/** The cluster set's side, as the composition root gives it: records what it is told. */
class RecordingTarget implements ClusterSecretTarget {
  readonly reports: Reported[] = [];
  reserved(name: string): boolean {
    return name === 'home' || name === 'configured';
  }
  async put(name: string, source: ClusterSecretSource): Promise<void> {
    this.reports.push({ action: 'put', name, source });
  }
  async remove(name: string): Promise<void> {
    this.reports.push({ action: 'remove', name });
  }
  of(name: string): Reported[] {
    return this.reports.filter((report) => report.name === name);
  }
}

const logLines: string[] = [];
const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
const running: ClusterSecretWatch[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'cluster-secrets-'));

function startWatch(kubeconfigPath = clusterKubeconfig()): { watch: ClusterSecretWatch; target: RecordingTarget; rest: RestClient } {
  const target = new RecordingTarget();
  const rest = new RestClient(loadKubeConfig({ kubeconfigPath }));
  const watch = new ClusterSecretWatch(rest, namespace.name, target, logger);
  running.push(watch);
  watch.start();
  return { watch, target, rest };
}

/** Creates or updates a cluster Secret in the home cluster (kubectl apply, as an operator would). */
async function applySecret(name: string, data: Record<string, string>, options: { clusterName?: string; labels?: Record<string, string> } = {}): Promise<void> {
  await applySecretIn(namespace.name, name, data, options);
}

async function applySecretIn(
  inNamespace: string,
  name: string,
  data: Record<string, string>,
  options: { clusterName?: string; labels?: Record<string, string> } = {},
): Promise<void> {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name,
      labels: { 'pilothouse.dev/cluster': 'true', ...options.labels },
      ...(options.clusterName ? { annotations: { 'pilothouse.dev/cluster-name': options.clusterName } } : {}),
    },
    stringData: data,
  };
  await applyYaml(clusterKubeconfig(), yaml.dump(secret), inNamespace);
}

async function deleteSecret(name: string): Promise<void> {
  await runKubectl(clusterKubeconfig(), ['delete', 'secret', name, '-n', namespace.name]);
}

function refusals(secret: string, inNamespace = namespace.name): { reason: string; line: string }[] {
  return logLines
    .map((line) => ({ line, entry: JSON.parse(line) as { msg?: string; secret?: string; reason?: string; namespace?: string } }))
    .filter(({ entry }) => entry.msg === 'cluster Secret refused' && entry.secret === secret && entry.namespace === inNamespace)
    .map(({ line, entry }) => ({ reason: entry.reason ?? '', line }));
}

/** The second cluster's kubeconfig with the context's namespace changed (a change of the Secret's data). */
function withNamespace(text: string, contextNamespace: string): string {
  const document = yaml.load(text) as { contexts: { context: Record<string, string> }[] };
  document.contexts[0]!.context.namespace = contextNamespace;
  return yaml.dump(document);
}

function readCommandLine(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** A running test service and its own cluster Secret watch (started by the service, src/app/service.ts). */
async function serviceWithSecrets(): Promise<{
  service: TestService;
  deps: TestService['deps'];
  watch: SecretsProvider;
  api<T = unknown>(path: string): Promise<ApiResponse<T>>;
  names(): Promise<string[]>;
  apply(data: Record<string, string>, clusterName?: string, secretName?: string): Promise<void>;
}> {
  // The service starts its own watch (src/app/service.ts) with `cluster.secrets` on (the default).
  const service = await startTestService({ logger });
  const deps = service.deps;
  const watch = deps.clusterSecrets;
  if (!watch) throw new Error('the service watches no cluster Secrets');
  await watch.synced;
  const api = <T = unknown>(path: string): Promise<ApiResponse<T>> => service.api<T>('GET', path, { token: service.adminToken });
  return {
    service,
    deps,
    watch,
    api,
    names: async () => (await api<{ items: { name: string }[] }>('/api/clusters')).body.items.map((item) => item.name),
    apply: (data, clusterName = 'staging', secretName = 'staging') => applySecretIn(service.namespace, secretName, data, { clusterName }),
  };
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((watch) => watch.stop()));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('cluster Secrets, watched live in the home cluster', () => {
  beforeAll(async () => {
    // Only the second cluster has this namespace: the kubeconfig handed over must reach that cluster.
    await runKubectl(second.current.kubeconfig, ['create', 'namespace', 'only-on-second']);
  });

  it('puts the cluster of a new Secret (its kubeconfig reaches the second cluster), replaces it when the data changes, not on a label change, and removes it with the Secret', async () => {
    const { watch, target } = startWatch();
    await watch.synced;
    expect(target.reports).toEqual([]);

    await applySecret('staging-secret', { kubeconfig: second.current.kubeconfigText }, { clusterName: 'staging' });
    await waitFor(() => target.of('staging').length === 1);
    const put = target.of('staging')[0]!;
    expect(put).toMatchObject({ action: 'put', source: { secret: 'staging-secret', context: 'testcluster' } });
    expect(put.source!.kubeConfig.getCurrentCluster()?.server).toBe(second.current.server);
    const remote = new RestClient(put.source!.kubeConfig);
    const marker = await remote.json<{ metadata: { name: string } }>('GET', '/api/v1/namespaces/only-on-second');
    expect(marker.metadata.name).toBe('only-on-second');
    await remote.close();
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'namespace', 'only-on-second'])).code).not.toBe(0);

    // A label change is no change of the cluster; the data change after it is the next report.
    await applySecret('staging-secret', { kubeconfig: second.current.kubeconfigText }, { clusterName: 'staging', labels: { team: 'platform' } });
    await applySecret('staging-secret', { kubeconfig: withNamespace(second.current.kubeconfigText, 'kube-system') }, { clusterName: 'staging' });
    await waitFor(() => target.of('staging').length === 2);
    expect(target.of('staging')[1]).toMatchObject({ action: 'put' });
    expect(target.of('staging')[1]!.source!.kubeConfig.getContextObject('testcluster')?.namespace).toBe('kube-system');

    // Renaming the cluster through the annotation removes the old name and puts the new one.
    await applySecret('staging-secret', { kubeconfig: withNamespace(second.current.kubeconfigText, 'kube-system') }, { clusterName: 'staging-b' });
    await waitFor(() => target.of('staging-b').length === 1);
    expect(target.of('staging')[2]).toEqual({ action: 'remove', name: 'staging' });

    await deleteSecret('staging-secret');
    await waitFor(() => target.of('staging-b').length === 2);
    expect(target.of('staging-b')[1]).toEqual({ action: 'remove', name: 'staging-b' });
    expect(target.reports.map((report) => `${report.action} ${report.name}`)).toEqual([
      'put staging',
      'put staging',
      'remove staging',
      'put staging-b',
      'remove staging-b',
    ]);
  });

  it('refuses an exec kubeconfig, a file reference, a reserved name and a bad name, logging the Secret and the reason but never the content', async () => {
    const token = (yaml.load(second.current.kubeconfigText) as { users: { user: { token: string } }[] }).users[0]!.user.token;
    const marker = join(scratch, 'exec-ran');
    const execConfig = yaml.load(second.current.kubeconfigText) as { users: { user: Record<string, unknown> }[] };
    execConfig.users[0]!.user = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'touch', args: [marker], interactiveMode: 'Never' } };
    const fileConfig = yaml.load(second.current.kubeconfigText) as { users: { user: Record<string, unknown> }[] };
    fileConfig.users[0]!.user = { tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token' };

    const { watch, target } = startWatch();
    await watch.synced;
    await applySecret('runner', { kubeconfig: yaml.dump(execConfig) });
    await applySecret('reader', { kubeconfig: yaml.dump(fileConfig) });
    await applySecret('taken', { kubeconfig: second.current.kubeconfigText }, { clusterName: 'configured' });
    await applySecret('badly-named', { kubeconfig: second.current.kubeconfigText }, { clusterName: 'Not_A_Label' });
    await applySecret('empty', { other: 'x' });
    // A valid one after them: once it is put, every Secret before it has been seen.
    await applySecret('last', { kubeconfig: second.current.kubeconfigText });
    await waitFor(() => target.of('last').length === 1);

    expect(target.reports.map((report) => `${report.action} ${report.name}`)).toEqual(['put last']);
    expect(refusals('runner').map(({ reason }) => reason)).toEqual([expect.stringContaining('user "admin" uses "exec"')]);
    expect(refusals('reader').map(({ reason }) => reason)).toEqual([expect.stringContaining('user "admin" uses "tokenFile"')]);
    expect(refusals('taken').map(({ reason }) => reason)).toEqual([expect.stringContaining('"configured" is a cluster of the configuration')]);
    expect(refusals('badly-named').map(({ reason }) => reason)).toEqual(['cluster name "Not_A_Label" is not a DNS-1123 label']);
    expect(refusals('empty').map(({ reason }) => reason)).toEqual(['the Secret has no "kubeconfig" key']);
    expect(existsSync(marker)).toBe(false);
    const everything = logLines.join('\n');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(marker);
    expect(everything).not.toContain('certificate-authority-data');

    // Fixed in place, the refused Secret registers its cluster.
    await applySecret('runner', { kubeconfig: second.current.kubeconfigText });
    await waitFor(() => target.of('runner').length === 1);
    await Promise.all(['runner', 'reader', 'taken', 'badly-named', 'empty', 'last'].map(deleteSecret));
    await waitFor(() => target.of('last').length === 2 && target.of('runner').length === 2);
  });

  it('after a broken watch, relists and removes the cluster of a Secret deleted meanwhile', async () => {
    await applySecret('flaky', { kubeconfig: second.current.kubeconfigText });
    await applySecret('steady', { kubeconfig: second.current.kubeconfigText });
    const relay = await startRelay(new URL(loadKubeConfig({ kubeconfigPath: clusterKubeconfig() }).getCurrentCluster()!.server));
    try {
      const { watch, target } = startWatch(relay.kubeconfig);
      await watch.synced;
      expect(target.reports.map((report) => `${report.action} ${report.name}`).sort()).toEqual(['put flaky', 'put steady']);

      // The watcher's connections drop and stay refused while the Secret goes away: it never sees the DELETED event.
      relay.cut();
      await deleteSecret('flaky');
      await waitFor(() => logLines.some((line) => line.includes('cluster Secret watch failed')));
      expect(target.of('flaky')).toHaveLength(1);
      relay.mend();
      await waitFor(() => target.of('flaky').length === 2, 45_000);
      expect(target.of('flaky')[1]).toEqual({ action: 'remove', name: 'flaky' });
      expect(target.of('steady')).toHaveLength(1);
    } finally {
      await relay.close();
      await deleteSecret('steady');
    }
  });

  it('a Secret adds its cluster to the running service: GET /api/clusters shows it and ?cluster= reaches it, live; deleting the Secret takes it away', async () => {
    const { service, deps, api, names, apply } = await serviceWithSecrets();
    try {
      expect(await names()).toEqual(['home']);
      expect((await api('/api/k8s/namespaces/only-on-second?cluster=staging')).status).toBe(404);

      await apply({ kubeconfig: second.current.kubeconfigText });
      await waitFor(async () => (await names()).includes('staging'));
      const listed = (await api<{ items: { name: string; source: string; reachable: boolean; version?: string }[] }>('/api/clusters')).body.items;
      expect(listed.find((item) => item.name === 'staging')).toMatchObject({ source: 'secret' });
      await waitFor(async () => (await api('/api/k8s/namespaces/only-on-second?cluster=staging')).status === 200);
      expect((await api('/api/k8s/namespaces/only-on-second')).status).toBe(404);
      // A live list on the Secret's cluster, open when the Secret goes.
      const response = await fetch(`${service.url}/api/k8s/namespaces/watch?cluster=staging`, { headers: { Authorization: `Bearer ${service.adminToken}` } });
      expect(response.status).toBe(200);
      const live = followEvents<{ items?: { name: string }[]; code?: string }>(response);
      await waitFor(async () => live.events.some((event) => event.event === 'snapshot'));
      expect(live.events[0]!.data.items?.map((item) => item.name)).toContain('only-on-second');
      // kubectl and helm read the cluster's kubeconfig from a file of the data dir, which goes with the cluster.
      const kubeconfigFile = join(deps.dataDir, 'clusters', 'staging.kubeconfig');
      expect(existsSync(kubeconfigFile)).toBe(true);
      const shown = JSON.stringify((await api('/api/clusters')).body);
      expect(shown).not.toContain((yaml.load(second.current.kubeconfigText) as { users: { user: { token: string } }[] }).users[0]!.user.token);

      // A kubeconfig that would run a program never becomes a cluster.
      const execConfig = yaml.load(second.current.kubeconfigText) as { users: { user: Record<string, unknown> }[] };
      execConfig.users[0]!.user = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'true' } };
      await apply({ kubeconfig: yaml.dump(execConfig) }, 'runner', 'runner');

      await runKubectl(clusterKubeconfig(), ['delete', 'secret', 'staging', '-n', service.namespace]);
      await waitFor(async () => !(await names()).includes('staging'));
      expect(await names()).toEqual(['home']);
      // The live list ends with the contract's error body instead of going quiet.
      await waitFor(async () => live.ended());
      expect(live.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'UNAVAILABLE', details: { reason: 'cache_stopped' } } });
      expect(existsSync(kubeconfigFile)).toBe(false);
      const gone = await api<{ code: string; details: { cluster: string } }>('/api/k8s/namespaces/only-on-second?cluster=staging');
      expect(gone.status).toBe(404);
      expect(gone.body).toMatchObject({ code: 'NOT_FOUND', details: { cluster: 'staging' } });
      expect(refusals('runner', service.namespace).map(({ reason }) => reason)).toEqual([expect.stringContaining('uses "exec"')]);
    } finally {
      await service.close();
    }
  });

  it('a cluster rebuilt from a changed Secret is probed like a new one (GET /api/clusters shows its version)', async () => {
    const { service, deps, api, apply } = await serviceWithSecrets();
    const version = async (): Promise<string | undefined> =>
      (await api<{ items: { name: string; version?: string }[] }>('/api/clusters')).body.items.find((item) => item.name === 'staging')?.version;
    try {
      await apply({ kubeconfig: second.current.kubeconfigText });
      await waitFor(async () => (await version()) !== undefined);
      const first = deps.clusters.get('staging');
      await apply({ kubeconfig: withNamespace(second.current.kubeconfigText, 'kube-system') });
      await waitFor(() => deps.clusters.get('staging') !== undefined && deps.clusters.get('staging') !== first);
      await waitFor(async () => (await version()) !== undefined, 15_000);
    } finally {
      await runKubectl(clusterKubeconfig(), ['delete', 'secret', 'staging', '-n', service.namespace, '--ignore-not-found']);
      await service.close();
    }
  });

  // Last: it kills the second cluster (the helper's "cluster down" for the many-clusters tests).
  it('the second cluster, killed mid-test, stops answering at once and leaves no process behind', async () => {
    const remote = new RestClient(loadKubeConfig({ kubeconfigPath: second.current.kubeconfig }));
    expect(await remote.json<{ gitVersion: string }>('GET', '/version')).toHaveProperty('gitVersion');
    await second.current.kill('SIGKILL');
    await expect(remote.json('GET', '/version')).rejects.toMatchObject({ code: 'K8S_ERROR', message: 'cannot reach the Kubernetes API server' });
    await remote.close();
    const left = readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && readCommandLine(pid).includes(second.current.directory));
    expect(left).toEqual([]);
  });
});

/**
 * A TCP relay to the home API server on 127.0.0.1 (the server's certificate names 127.0.0.1, so TLS still holds),
 * with a kubeconfig pointing at it: `cut` drops every connection and refuses new ones, `mend` lets them through.
 */
async function startRelay(upstream: URL): Promise<{ kubeconfig: string; cut(): void; mend(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy();
    const backend = connect({ host: upstream.hostname, port: Number(upstream.port) });
    for (const socket of [client, backend]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(backend).pipe(client);
    client.on('close', () => backend.destroy());
    backend.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const document = yaml.load(await runKubectl(clusterKubeconfig(), ['config', 'view', '--raw', '--flatten'])) as {
    clusters: { cluster: { server: string } }[];
  };
  document.clusters[0]!.cluster.server = `https://127.0.0.1:${port}`;
  const kubeconfig = join(scratch, `relay-${uniqueName('kubeconfig')}`);
  writeFileSync(kubeconfig, yaml.dump(document), { mode: 0o600 });
  return {
    kubeconfig,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    mend() {
      open = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
