import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig } from '../../helpers/cluster.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { followReportEvents } from '../../helpers/report-client.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Report objects under kubectl: every transition of the controller is a Kubernetes Event on the
// Report (Generating, Completed; a failed step as a Warning named after the step).
let service: TestService;
const kubectl = (args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), [...args, '-n', service.namespace]);

interface KubeEvent {
  reason: string;
  type: string;
  message?: string;
  involvedObject: { kind: string; name: string; apiVersion: string };
  reportingComponent: string;
}

async function eventsOf(name: string): Promise<KubeEvent[]> {
  return (JSON.parse(await kubectl(['get', 'events', '--field-selector', `involvedObject.name=${name}`, '-o', 'json'])) as { items: KubeEvent[] }).items;
}

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.close();
});

describe('Report Events', () => {
  it('records Generating and Completed for a report that completes', async () => {
    const response = await service.api<{ id: string }>('POST', '/api/reports', {
      token: service.adminToken,
      body: { type: 'cluster-overview', format: 'json' },
    });
    expect(response.status, response.text).toBe(202);
    const id = response.body.id;
    expect((await followReportEvents(service, id, service.adminToken)).at(-1)?.event).toBe('completed');
    await expect
      .poll(async () => (await eventsOf(id)).map((event) => event.reason), { timeout: 20_000 })
      .toEqual(expect.arrayContaining(['Generating', 'Completed']));
    for (const event of await eventsOf(id)) {
      expect(event.involvedObject).toMatchObject({ kind: 'Report', name: id, apiVersion: 'pilothouse.dev/v1alpha1' });
      expect(event.reportingComponent).toBe('pilothouse.dev/controller');
      expect(event.type).toBe('Normal');
    }
  }, 120_000);

  it('records a Warning named after the failed step for a Report whose requester is unknown', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'pilothouse.dev/v1alpha1',
      kind: 'Report',
      metadata: { name: 'unknown-requester' },
      spec: { type: 'cluster-overview', format: 'json', requester: 'nobody-here' },
    });
    const created = await tryKubectl(clusterKubeconfig(), ['create', '-n', service.namespace, '-f', '-'], manifest);
    expect(created.code, created.stderr).toBe(0);
    await expect
      .poll(async () => (await eventsOf('unknown-requester')).find((event) => event.reason === 'AcceptedFailed'), { timeout: 30_000 })
      .toMatchObject({ type: 'Warning', involvedObject: { kind: 'Report', name: 'unknown-requester' } });
    expect(await kubectl(['get', 'report', 'unknown-requester', '-o', 'jsonpath={.status.phase}'])).toBe('failed');
  }, 60_000);
});
