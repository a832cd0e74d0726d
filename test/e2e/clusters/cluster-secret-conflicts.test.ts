import * as yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { clusterKubeconfig, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Two cluster Secrets naming one cluster (security review four, finding 8): the Secret that holds the name
// keeps it, whatever their names sort as; the refused one shows in GET /api/clusters (admins) and the log.
const logLines: string[] = [];
const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
let service: TestService;

/** A kubeconfig with inline credentials only; `server` tells the two registrations apart. */
function kubeconfig(server: string): string {
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'c',
    clusters: [{ name: 'c', cluster: { server } }],
    users: [{ name: 'u', user: { token: 'not-a-real-token' } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
  });
}

async function applySecret(name: string, server: string): Promise<void> {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, labels: { 'pilothouse.dev/cluster': 'true' }, annotations: { 'pilothouse.dev/cluster-name': 'contested' } },
    stringData: { kubeconfig: kubeconfig(server) },
  };
  await applyYaml(clusterKubeconfig(), yaml.dump(secret), service.namespace);
}

interface ClusterItem {
  name: string;
  refusedSecrets?: { secret: string; reason: string }[];
}

const clusters = async (token: string): Promise<ClusterItem[]> => (await service.api<{ items: ClusterItem[] }>('GET', '/api/clusters', { token })).body.items;
const contested = async (token = service.adminToken): Promise<ClusterItem | undefined> => (await clusters(token)).find((item) => item.name === 'contested');

beforeAll(async () => {
  service = await startTestService({ logger });
  await tryKubectl(clusterKubeconfig(), ['create', 'namespace', service.namespace]);
  await service.deps.clusterSecrets?.synced;
}, 60_000);

afterAll(async () => {
  await service?.close();
  await tryKubectl(clusterKubeconfig(), ['delete', 'namespace', service.namespace, '--wait=false']);
});

describe('two cluster Secrets naming one cluster', () => {
  it('leaves the cluster with the Secret that holds it; the one that sorts first is refused, shown to admins and logged', async () => {
    await applySecret('zz-holder', 'https://127.0.0.1:9');
    await waitFor(async () => (await contested()) !== undefined);
    const held = service.deps.clusters.get('contested');
    expect(held).toBeDefined();

    await applySecret('aa-newcomer', 'https://127.0.0.2:9');
    await waitFor(async () => ((await contested())?.refusedSecrets ?? []).length > 0);
    expect((await contested())?.refusedSecrets).toEqual([{ secret: 'aa-newcomer', reason: 'cluster "contested" is registered by Secret "zz-holder"' }]);
    // Not rebuilt from the newcomer's kubeconfig: the same cluster scope serves the name.
    expect(service.deps.clusters.get('contested')).toBe(held);
    const logged = logLines.map((line) => JSON.parse(line) as { msg?: string; secret?: string; reason?: string });
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'cluster Secret refused', secret: 'aa-newcomer', reason: 'cluster "contested" is registered by Secret "zz-holder"' }),
    );
    expect(logLines.join('\n')).not.toContain('not-a-real-token');

    // Non-admins see the cluster, not the Secret names of Pilothouse's own namespace.
    const user = await service.createUser('user');
    const forUser = await contested(user.token);
    expect(forUser).toBeDefined();
    expect(forUser?.refusedSecrets).toBeUndefined();

    // A relist (a restart of the watch) keeps the holder as well.
    await service.deps.clusterSecrets?.stop();
    service.deps.clusterSecrets?.start();
    await applySecret('aa-newcomer', 'https://127.0.0.3:9');
    await waitFor(async () => ((await contested())?.refusedSecrets ?? []).length > 0);
    expect(service.deps.clusters.get('contested')).toBe(held);

    // Once the holder's Secret is gone, the other one registers the cluster.
    await runKubectl(clusterKubeconfig(), ['delete', 'secret', 'zz-holder', '-n', service.namespace]);
    await waitFor(() => service.deps.clusters.get('contested') !== undefined && service.deps.clusters.get('contested') !== held);
    await waitFor(async () => (await contested())?.refusedSecrets === undefined);
  });
});
