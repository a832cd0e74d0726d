import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { useSecondCluster } from '../../helpers/second-cluster.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Problems on two real clusters (issue 35): the shared test cluster is `home`, a second one of this file is `b`.
// The same namespace exists on both; a Service that selects no pod lives only on b. Its finding carries b's
// name, is listed with ?cluster=b only, and counts in b's entry of GET /api/clusters.
const second = useSecondCluster(1);
const shared = uniqueName('pb-clusters');
let service: TestService;

interface Finding {
  cluster: string;
  object: { kind: string; namespace?: string; name: string };
  reason: string;
}

async function findings(query: string): Promise<Finding[]> {
  const response = await service.api<{ items: Finding[] }>('GET', `/api/problems${query}`, { token: service.adminToken });
  expect(response.status, response.text).toBe(200);
  return response.body.items;
}

beforeAll(async () => {
  for (const kubeconfig of [clusterKubeconfig(), second.current.kubeconfig]) await runKubectl(kubeconfig, ['create', 'namespace', shared]);
  await applyYaml(
    second.current.kubeconfig,
    `apiVersion: v1\nkind: Service\nmetadata: {name: only-on-b}\nspec:\n  selector: {app: nobody}\n  ports: [{port: 80, targetPort: 8080}]`,
    shared,
  );
  service = await startTestService({
    config: { cluster: { name: 'home', secrets: false }, clusters: [{ name: 'b', kubeconfig: second.current.kubeconfig }] } as never,
  });
}, 300_000);

afterAll(async () => {
  await service?.close();
  await runKubectl(clusterKubeconfig(), ['delete', 'namespace', shared, '--wait=false']).catch(() => undefined);
});

describe('problems across clusters', () => {
  it("names the second cluster on its findings, lists them only there, and counts them in b's cluster entry", async () => {
    let found: Finding | undefined;
    await waitFor(async () => {
      found = (await findings(`?cluster=b&namespace=${shared}&kind=Service`)).find((item) => item.object.name === 'only-on-b');
      return found !== undefined;
    }, 60_000);
    expect(found).toMatchObject({ cluster: 'b', reason: 'NoPodsSelected', object: { kind: 'Service', namespace: shared, name: 'only-on-b' } });
    expect(await findings(`?namespace=${shared}`)).toEqual([]);
    await waitFor(async () => {
      const listed = await service.api<{ items: Array<{ name: string; problems?: { warning: number } }> }>('GET', '/api/clusters', {
        token: service.adminToken,
      });
      return (listed.body.items.find((cluster) => cluster.name === 'b')?.problems?.warning ?? 0) >= 1;
    }, 60_000);
  });
});
