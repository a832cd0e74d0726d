import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceItem } from '../../../src/kube/cache/table.js';
import { droppedFrame, WatchFeeds, type FeedSubscriber } from '../../../src/kube/cache/watch-feeds.js';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { followEvents, type Followed } from '../../helpers/sse-follow.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Live lists fan out from one feed per (cache, namespace, selector) (docs/adr/0033): every client gets every
 * change of an object it may see (label changes included), an RBAC change re-scopes an open live list, and a
 * client that does not keep up is dropped with an `error` event while the others go on.
 */
const x = useNamespace('fan-x');
const y = useNamespace('fan-y');
const prefix = uniqueName('fan');
const onlyX = `${prefix}-only-x`;
const everywhere = `${prefix}-everywhere`;
let service: TestService;

interface LiveEvent {
  event: string;
  data: { items?: { name: string; namespace?: string }[]; item?: { name: string; namespace?: string }; code?: string; details?: { reason?: string } };
}

const follow = (response: Response): Followed<LiveEvent['data']> => followEvents<LiveEvent['data']>(response);

const kubectl = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), args);
const userSubject = (name: string): string => `{apiGroup: rbac.authorization.k8s.io, kind: User, name: ${name}}`;
const listConfigMaps = '{apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}';
const roleAndBinding = (name: string, namespace: string, subject: string): string =>
  `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: ${name}, namespace: ${namespace}}\nrules: [${listConfigMaps}]\n---\n` +
  `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: ${name}, namespace: ${namespace}}\n` +
  `roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ${name}}\nsubjects: [${userSubject(subject)}]\n`;

/** `event name/namespace` of each change event (snapshots left out). */
const changes = (events: LiveEvent[]): string[] =>
  events.filter((event) => event.data.item).map((event) => `${event.event} ${event.data.item!.name}/${event.data.item!.namespace}`);

beforeAll(async () => {
  await applyYaml(
    clusterKubeconfig(),
    roleAndBinding('only-x', x.name, onlyX) +
      '---\n' +
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: ${everywhere}}\nrules: [${listConfigMaps}]\n---\n` +
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: ${everywhere}}\n` +
      `roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${everywhere}}\nsubjects: [${userSubject(everywhere)}]\n`,
  );
  service = await startTestService({
    config: { authorization: { impersonation: { enabled: true, mappings: { viewer: onlyX, user: onlyX, admin: everywhere } } } },
  });
});

afterAll(async () => {
  await service?.close();
  await tryKubectl(clusterKubeconfig(), ['delete', 'clusterrolebinding,clusterrole', everywhere, '--ignore-not-found']);
});

async function watch(query: string, token: string): Promise<Response> {
  return fetch(`${service.url}/api/k8s/configmaps/watch?${query}`, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } });
}

describe('live lists fan out', () => {
  it('gives every client every change of what it may see, label changes included', { timeout: 60_000 }, async () => {
    const viewer = await service.createUser('viewer');
    const query = 'labelSelector=app%3Dfan';
    const narrow = await Promise.all([1, 2, 3].map(async () => follow(await watch(query, viewer.token))));
    const wide = await Promise.all([1, 2, 3].map(async () => follow(await watch(query, service.adminToken))));
    await waitFor(() => [...narrow, ...wide].every((live) => live.events.some((event) => event.event === 'snapshot')));

    await kubectl('create', 'configmap', 'in-x', '-n', x.name);
    await kubectl('label', 'configmap', 'in-x', '-n', x.name, 'app=fan');
    await kubectl('create', 'configmap', 'in-y', '-n', y.name);
    await kubectl('label', 'configmap', 'in-y', '-n', y.name, 'app=fan');
    // The label moves the row out of the selected view and back in.
    await kubectl('label', 'configmap', 'in-x', '-n', x.name, 'app=other', '--overwrite');
    await kubectl('label', 'configmap', 'in-x', '-n', x.name, 'app=fan', '--overwrite');
    await kubectl('delete', 'configmap', 'in-y', '-n', y.name);

    const inX = [`added in-x/${x.name}`, `deleted in-x/${x.name}`, `added in-x/${x.name}`];
    const wideChanges = [`added in-x/${x.name}`, `added in-y/${y.name}`, `deleted in-x/${x.name}`, `added in-x/${x.name}`, `deleted in-y/${y.name}`];
    await waitFor(() => wide.every((live) => changes(live.events).length === wideChanges.length));
    await waitFor(() => narrow.every((live) => changes(live.events).length === inX.length));
    for (const live of wide) expect(changes(live.events)).toEqual(wideChanges);
    for (const live of narrow) {
      expect(changes(live.events)).toEqual(inX);
      expect(JSON.stringify(live.events)).not.toContain(y.name);
    }
    await Promise.all([...narrow, ...wide].map((live) => live.close()));
  });

  it('re-scopes an open live list when a RoleBinding is added and removed', { timeout: 60_000 }, async () => {
    const viewer = await service.createUser('viewer');
    await kubectl('create', 'configmap', 'late', '-n', y.name);
    const live = follow(await watch('', viewer.token));
    await waitFor(() => live.events.some((event) => event.event === 'snapshot'));
    const snapshots = (): LiveEvent[] => live.events.filter((event) => event.event === 'snapshot');
    const seesY = (event: LiveEvent): boolean => event.data.items!.some((item) => item.namespace === y.name);
    expect(seesY(snapshots()[0]!)).toBe(false);

    await applyYaml(clusterKubeconfig(), roleAndBinding('only-x', y.name, onlyX));
    await waitFor(() => seesY(snapshots().at(-1)!), 2_000, 100);
    await kubectl('create', 'configmap', 'later', '-n', y.name);
    await waitFor(() => changes(live.events).includes(`added later/${y.name}`));

    await kubectl('delete', 'rolebinding', 'only-x', '-n', y.name);
    await waitFor(() => !seesY(snapshots().at(-1)!), 2_000, 100);
    const count = live.events.length;
    await kubectl('create', 'configmap', 'latest', '-n', y.name);
    await kubectl('create', 'configmap', 'marker', '-n', x.name);
    await waitFor(() => changes(live.events).includes(`added marker/${x.name}`));
    expect(JSON.stringify(live.events.slice(count))).not.toContain(y.name);
    await live.close();
  });

  it('drops a client that does not keep up, with an error event, and the others get every change', { timeout: 60_000 }, async () => {
    const feeds = new WatchFeeds(4096);
    const own = service.deps.home.kube.forIdentity(undefined);
    const configmaps = await service.deps.home.discovery.resolve('configmaps');
    const cache = await service.deps.home.caches.get(own, configmaps, x.name);
    const subscriber = (sink: PassThrough): FeedSubscriber & { dropped: boolean } => ({
      dropped: false,
      sees: (item: ResourceItem) => item.namespace === x.name,
      classKey: () => '*',
      pending: () => sink.writableLength + sink.readableLength,
      write: (text) => void sink.write(text),
      drop(text) {
        this.dropped = true;
        sink.end(text);
      },
    });
    // The fast clients' connections take everything at once; the slow one's never reads.
    const fastSinks = [new PassThrough(), new PassThrough()];
    const received = fastSinks.map((sink) => {
      const text: string[] = [];
      sink.on('data', (chunk: Buffer) => text.push(chunk.toString()));
      return text;
    });
    const slowSink = new PassThrough({ highWaterMark: 16 });
    const fast = fastSinks.map((sink) => subscriber(sink));
    const slow = subscriber(slowSink);
    const stops = [...fast, slow].map((each) => feeds.subscribe(cache, { kind: 'ConfigMap', namespace: x.name }, each));
    expect(feeds.counts()).toEqual({ feeds: 1, clients: 3 });

    const names = Array.from({ length: 40 }, (_, index) => `burst-${index}`);
    for (const name of names) await kubectl('create', 'configmap', name, '-n', x.name, `--from-literal=padding=${'p'.repeat(200)}`);
    await waitFor(() => received.every((text) => names.every((name) => text.join('').includes(`"name":"${name}"`))));
    expect(slow.dropped).toBe(true);
    expect(fast.every((each) => !each.dropped)).toBe(true);
    expect(feeds.counts()).toEqual({ feeds: 1, clients: 2 });
    const slowText = await new Promise<string>((resolve) => {
      const parts: Buffer[] = [];
      slowSink.on('data', (chunk: Buffer) => parts.push(chunk));
      slowSink.on('end', () => resolve(Buffer.concat(parts).toString()));
    });
    expect(slowText.endsWith(droppedFrame)).toBe(true);
    expect(droppedFrame).toContain('"code":"UNAVAILABLE"');
    stops.forEach((stop) => stop());
    expect(feeds.counts()).toEqual({ feeds: 0, clients: 0 });
  });
});
