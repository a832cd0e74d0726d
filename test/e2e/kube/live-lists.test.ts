import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { followEvents, type Followed } from '../../helpers/sse-follow.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// The live list (GET /api/k8s/{resource}/watch): SSE from the same watch-fed cache as the list, on the real cluster.
interface LiveEvent {
  event: string;
  data: { items?: { name: string; namespace?: string }[]; item?: { name: string; namespace?: string; status?: string }; revision: string };
}

const follow = (response: Response): Followed<LiveEvent['data']> => followEvents<LiveEvent['data']>(response);

const podYaml = (name: string, labels: Record<string, string> = {}): string =>
  [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    `  name: ${name}`,
    `  labels: ${JSON.stringify(labels)}`,
    'spec:',
    '  containers: [{name: app, image: busybox}]',
  ].join('\n');

describe('live lists', () => {
  const open = useNamespace('live');
  const hidden = useNamespace('live-hidden');
  let service: TestService;
  let viewer: { token: string };

  beforeAll(async () => {
    service = await startTestService({
      config: { authorization: { roles: [{ name: 'no-hidden', resources: ['*'], namespaces: [hidden.name], verbs: ['*'], effect: 'deny' }] } },
    });
    viewer = await service.createUser('viewer', { roles: ['no-hidden'] });
    await applyYaml(clusterKubeconfig(), podYaml('first', { app: 'web' }), open.name);
    await applyYaml(clusterKubeconfig(), podYaml('secret-one', { app: 'web' }), hidden.name);
  });

  afterAll(async () => {
    await service?.close();
  });

  async function watch(query: string, token: string): Promise<Response> {
    return fetch(`${service.url}/api/k8s/pods/watch?${query}`, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } });
  }

  it('sends a snapshot, then added, modified and deleted rows in the list item shape', { timeout: 60_000 }, async () => {
    const response = await watch(`namespace=${open.name}`, service.adminToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const live = follow(response);
    await waitFor(() => live.events.length > 0);
    expect(live.events[0]).toMatchObject({ event: 'snapshot', data: { items: [{ name: 'first', namespace: open.name }] } });

    await applyYaml(clusterKubeconfig(), podYaml('second', { app: 'api' }), open.name);
    await waitFor(() => live.events.some((event) => event.event === 'added' && event.data.item?.name === 'second'));
    const added = live.events.find((event) => event.event === 'added')!;
    const listed = await service.api('GET', `/api/k8s/pods?namespace=${open.name}`, { token: service.adminToken });
    expect(Object.keys(added.data.item!).sort()).toEqual(Object.keys(listed.body.items[0]).sort());

    await runKubectl(clusterKubeconfig(), ['label', 'pod', 'second', '-n', open.name, 'tier=back']);
    await waitFor(() => live.events.some((event) => event.event === 'modified' && event.data.item?.name === 'second'));
    await runKubectl(clusterKubeconfig(), ['delete', 'pod', 'second', '-n', open.name, '--grace-period=0', '--force', '--wait=false']);
    await waitFor(() => live.events.some((event) => event.event === 'deleted' && event.data.item?.name === 'second'), 30_000);
    await live.close();
  });

  it('filters by label selector on the list and the live list; a malformed selector is a 400 naming it', { timeout: 60_000 }, async () => {
    const listed = await service.api('GET', `/api/k8s/pods?namespace=${open.name}&labelSelector=${encodeURIComponent('app in (web),!legacy')}`, {
      token: service.adminToken,
    });
    expect(listed.body.items.map((item: { name: string }) => item.name)).toEqual(['first']);
    expect((await service.api('GET', `/api/k8s/pods?namespace=${open.name}&labelSelector=app%3Dnone`, { token: service.adminToken })).body.total).toBe(0);
    const bad = await service.api('GET', `/api/k8s/pods/watch?labelSelector=${encodeURIComponent('app=(x')}`, { token: service.adminToken });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { labelSelector: expect.any(String) } } });

    const live = follow(await watch(`namespace=${open.name}&labelSelector=app%3Dweb`, service.adminToken));
    await waitFor(() => live.events.length > 0);
    await applyYaml(clusterKubeconfig(), podYaml('third', { app: 'api' }), open.name);
    await applyYaml(clusterKubeconfig(), podYaml('fourth', { app: 'web' }), open.name);
    await waitFor(() => live.events.some((event) => event.data.item?.name === 'fourth'));
    expect(live.events.some((event) => event.data.item?.name === 'third')).toBe(false);
    // A row that stops matching the selector leaves the live list.
    await runKubectl(clusterKubeconfig(), ['label', 'pod', 'fourth', '-n', open.name, 'app=api', '--overwrite']);
    await waitFor(() => live.events.some((event) => event.event === 'deleted' && event.data.item?.name === 'fourth'));
    await live.close();
  });

  it('never shows a viewer rows of a namespace a deny role hides, in the snapshot or later', { timeout: 60_000 }, async () => {
    const live = follow(await watch('', viewer.token));
    await waitFor(() => live.events.length > 0);
    await applyYaml(clusterKubeconfig(), podYaml('secret-two'), hidden.name);
    await applyYaml(clusterKubeconfig(), podYaml('visible-two'), open.name);
    await waitFor(() => live.events.some((event) => event.data.item?.name === 'visible-two'));
    const names = JSON.stringify(live.events);
    expect(names).not.toContain(hidden.name);
    expect(live.events[0]!.data.items!.some((item) => item.name === 'first')).toBe(true);
    await live.close();
    expect((await watch(`namespace=${hidden.name}`, viewer.token)).status).toBe(403);
  });

  it('pages a list with limit/continue exactly once per item, sorts server side, and a new pod shows in the next list', { timeout: 60_000 }, async () => {
    for (const name of ['p-a', 'p-b', 'p-c', 'p-d', 'p-e']) await applyYaml(clusterKubeconfig(), podYaml(name, { set: 'paged' }), open.name);
    const base = `/api/k8s/pods?namespace=${open.name}&labelSelector=set%3Dpaged`;
    await waitFor(async () => (await service.api('GET', base, { token: service.adminToken })).body.total === 5);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await service.api('GET', `${base}&limit=2${token ? `&continue=${token}` : ''}`, { token: service.adminToken });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      expect(page.body.total).toBe(5);
      seen.push(...page.body.items.map((item: { name: string }) => item.name));
      token = page.body.continue;
    } while (token);
    expect(seen).toEqual(['p-a', 'p-b', 'p-c', 'p-d', 'p-e']);
    const descending = await service.api('GET', `${base}&sortBy=-name`, { token: service.adminToken });
    expect(descending.body.items.map((item: { name: string }) => item.name)).toEqual(['p-e', 'p-d', 'p-c', 'p-b', 'p-a']);
    const bad = await service.api('GET', `${base}&continue=not-a-token`, { token: service.adminToken });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields).toHaveProperty('continue');

    await applyYaml(clusterKubeconfig(), podYaml('p-f', { set: 'paged' }), open.name);
    await waitFor(async () => (await service.api('GET', base, { token: service.adminToken })).body.items.some((item: { name: string }) => item.name === 'p-f'));
  });

  it('answers an unchanged list with 304 and compresses with br or gzip to the same JSON', { timeout: 60_000 }, async () => {
    const url = `${service.url}/api/k8s/pods?namespace=${open.name}`;
    const headers = { Authorization: `Bearer ${service.adminToken}` };
    const plain = await fetch(url, { headers: { ...headers, 'Accept-Encoding': 'identity' } });
    const etag = plain.headers.get('etag');
    const json = (await plain.json()) as { total: number };
    expect(etag).toMatch(/^W\/"/);
    // The same list within its second and revision: 304 with no body.
    const again = await fetch(url, { headers: { ...headers, 'If-None-Match': etag! } });
    if (again.status !== 304) expect(again.headers.get('etag')).not.toBe(etag);
    for (const encoding of ['br', 'gzip']) {
      const compressed = await fetch(url, { headers: { ...headers, 'Accept-Encoding': encoding } });
      const body = (await compressed.json()) as { total: number };
      if (JSON.stringify(body).length >= 1024) expect(compressed.headers.get('content-encoding')).toBe(encoding);
      expect(body.total).toBe(json.total);
    }
    // An ETag never matches a changed list.
    await applyYaml(clusterKubeconfig(), podYaml('etag-change'), open.name);
    await waitFor(async () => (await fetch(url, { headers: { ...headers, 'If-None-Match': etag! } })).status === 200);
  });
});
