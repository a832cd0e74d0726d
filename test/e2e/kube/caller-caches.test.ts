import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClients, loadKubeConfig, type KubeIdentityClient } from '../../../src/kube/clients.js';
import type { ResourceType } from '../../../src/kube/discovery.js';
import { ListAccessSets, ListRefused } from '../../../src/kube/cache/list-access.js';
import { listResources } from '../../../src/kube/list-view/rows.js';
import { TableCache, type RowChange } from '../../../src/kube/cache/table-cache.js';
import { createLogger } from '../../../src/log.js';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { followEvents } from '../../helpers/sse-follow.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Lists the service itself may not make (Secrets outside its namespace, as under the chart) are made as the
 * caller into a cache of their own (src/kube/cache/cache-manager.ts). Security review four, findings 2 and 9: such a
 * cache is served only while the cluster lets the caller make the list, is keyed by the caller's whole identity
 * (user and groups), and stops (rows dropped, live lists ended with the 403) when the cluster refuses it.
 */
const own = useNamespace('cc-own');
const secretsHome = useNamespace('cc-s');
const prefix = uniqueName('cc');
const serviceUser = `${prefix}-service`;
const reader = `${prefix}-reader`;
const relister = `${prefix}-relister`;
const member = `${prefix}-member`;
const team = `${prefix}-team`;
const logger = createLogger('silent');
let service: TestService;
let secrets: ResourceType;
let directory: string;

const kubectl = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), args);
const userSubject = (name: string): string => `{apiGroup: rbac.authorization.k8s.io, kind: User, name: ${name}}`;
const secretReader = (name: string, subject: string): string =>
  `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: ${name}, namespace: ${secretsHome.name}}\n` +
  'rules: [{apiGroups: [""], resources: [secrets], verbs: [get, list, watch]}]\n---\n' +
  `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: ${name}, namespace: ${secretsHome.name}}\n` +
  `roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ${name}}\nsubjects: [${subject}]\n`;

/** Everything but Secrets (as the chart's ClusterRole: RBAC has no "all but", so the kinds are named), plus Secrets in its own namespace. */
async function serviceIdentityRbac(): Promise<string> {
  const coreKinds = (await kubectl('api-resources', '--api-group=', '-o', 'name'))
    .split('\n')
    .map((line) => line.trim())
    .filter((name) => name && name !== 'secrets' && !name.includes('.'));
  const groups = [
    ...new Set(
      (await kubectl('api-versions'))
        .split('\n')
        .filter((line) => line.includes('/'))
        .map((line) => line.split('/')[0]!),
    ),
  ];
  return (
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: ${serviceUser}}\nrules:\n` +
    `- {apiGroups: [""], resources: ${JSON.stringify(coreKinds)}, verbs: ["*"]}\n` +
    `- {apiGroups: ${JSON.stringify(groups)}, resources: ["*"], verbs: ["*"]}\n---\n` +
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: ${serviceUser}}\n` +
    `roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${serviceUser}}\nsubjects: [${userSubject(serviceUser)}]\n---\n` +
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: own-secrets, namespace: ${own.name}}\n` +
    'rules: [{apiGroups: [""], resources: [secrets], verbs: ["*"]}]\n---\n' +
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: own-secrets, namespace: ${own.name}}\n` +
    `roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: own-secrets}\nsubjects: [${userSubject(serviceUser)}]\n`
  );
}

/** The test cluster's kubeconfig acting as `serviceUser` (its credentials impersonate it, as callers are impersonated on top). */
async function serviceKubeconfig(): Promise<string> {
  const kubeconfig = JSON.parse(await kubectl('config', 'view', '--raw', '--minify', '-o', 'json'));
  kubeconfig.users[0].user.as = serviceUser;
  const path = join(directory, 'service.kubeconfig');
  writeFileSync(path, JSON.stringify(kubeconfig), { mode: 0o600 });
  return path;
}

const as = (name: string, groups: string[] = []): KubeIdentityClient => service.deps.home.kube.forIdentity({ user: name, groups });

/** Secret names the service shows `client` in the namespace, or 'refused' (the API server's 403). */
async function shown(client: KubeIdentityClient): Promise<string[] | 'refused'> {
  try {
    const view = await service.deps.home.caches.view(client, secrets, secretsHome.name);
    return listResources(view, { type: secrets, namespace: secretsHome.name })
      .map((item) => item.name)
      .sort();
  } catch (error) {
    if (error instanceof ListRefused) return 'refused';
    throw error;
  }
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'pilothouse-caller-caches-'));
  await kubectl('create', 'secret', 'generic', 'one', '-n', secretsHome.name, '--from-literal=key=value');
  await applyYaml(
    clusterKubeconfig(),
    [
      await serviceIdentityRbac(),
      secretReader('reader', userSubject(reader)),
      secretReader('relister', userSubject(relister)),
      secretReader('team', `{apiGroup: rbac.authorization.k8s.io, kind: Group, name: ${team}}`),
    ].join('---\n'),
  );
  service = await startTestService({
    kubeconfig: await serviceKubeconfig(),
    config: {
      kubernetes: { namespace: own.name, install_crds: false },
      authorization: { impersonation: { enabled: true, mappings: { viewer: reader, user: reader, admin: reader } } },
    },
  });
  secrets = await service.deps.home.discovery.resolve('secrets');
  // The mode under test: the service's own identity may not list these Secrets.
  const canI = await tryKubectl(clusterKubeconfig(), ['auth', 'can-i', 'list', 'secrets', '-n', secretsHome.name, '--as', serviceUser]);
  expect(canI.stdout.trim()).toBe('no');
}, 120_000);

afterAll(async () => {
  await service?.close();
  await tryKubectl(clusterKubeconfig(), ['delete', 'clusterrolebinding,clusterrole', serviceUser, '--ignore-not-found']);
  rmSync(directory, { recursive: true, force: true });
});

describe('caches listed as the caller', () => {
  it('keys the cache by the whole identity: the same user name in another group gets its own answer', async () => {
    expect(await shown(as(member, [team]))).toEqual(['one']);
    expect(await shown(as(member))).toBe('refused');
    expect(await shown(as(member, [`${team}-other`]))).toBe('refused');
    expect(await shown(as(member, [team]))).toEqual(['one']);
  });

  it('a caller whose RoleBinding is deleted lists nothing more, and their open live list ends with the 403', { timeout: 90_000 }, async () => {
    const user = await service.createUser('user');
    const listed = await service.api('GET', `/api/k8s/secrets?namespace=${secretsHome.name}`, { token: user.token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items.map((item: { name: string }) => item.name)).toContain('one');
    const response = await fetch(`${service.url}/api/k8s/secrets/watch?namespace=${secretsHome.name}`, {
      headers: { Authorization: `Bearer ${user.token}`, Accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    const live = followEvents<{ items?: { name: string }[]; item?: { name: string }; code?: string }>(response);
    try {
      await waitFor(() => live.events.length > 0);
      expect(live.events[0]).toMatchObject({ event: 'snapshot', data: { items: [{ name: 'one' }] } });

      await kubectl('delete', 'rolebinding', 'reader', '-n', secretsHome.name);
      await waitFor(() => live.ended(), 45_000, 100);
      expect(live.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'FORBIDDEN' } });
      const refused = await service.api('GET', `/api/k8s/secrets?namespace=${secretsHome.name}`, { token: user.token });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN' });
      // A Secret made after the revocation reaches the caller by no path.
      await kubectl('create', 'secret', 'generic', 'late', '-n', secretsHome.name);
      const again = await service.api('GET', `/api/k8s/secrets?namespace=${secretsHome.name}`, { token: user.token });
      expect(again.status).toBe(403);
      expect(live.events.some((event) => event.data.item?.name === 'late')).toBe(false);
    } finally {
      await live.close();
    }
  });

  it('a relist the cluster refuses empties and stops the cache', { timeout: 60_000 }, async () => {
    const cache = new TableCache(as(relister).rest, secrets, secretsHome.name, logger);
    cache.watchTimeoutSeconds = 1;
    try {
      await cache.synced;
      expect(cache.size).toBeGreaterThan(0);
      const stopped = new Promise<RowChange>((resolve) => cache.onChange((change) => change.type === 'stopped' && resolve(change)));
      await kubectl('delete', 'rolebinding', 'relister', '-n', secretsHome.name);
      const change = await stopped;
      expect(change).toMatchObject({ type: 'stopped', refusal: { code: 'FORBIDDEN' } });
      expect(cache.isStopped).toBe(true);
      expect(cache.snapshot()).toEqual([]);
    } finally {
      cache.stop();
    }
  });
});

describe('access answers', () => {
  it('are kept at most 30 s besides the RBAC invalidation (injected clock)', async () => {
    let now = Date.now();
    const reviews: string[] = [];
    const clients = new KubeClients(loadKubeConfig({ kubeconfigPath: clusterKubeconfig() }), {}, (verb) => reviews.push(verb));
    const access = new ListAccessSets(
      () => service.deps.home.kube.forIdentity(undefined).rest,
      logger,
      () => now,
    );
    try {
      const caller = clients.forIdentity({ user: member, groups: [team] });
      /** Whether the next answer comes without a review (kept). */
      const keptNow = async (): Promise<boolean> => {
        const before = reviews.length;
        expect(await access.mayList(caller, secrets, secretsHome.name)).toBe(true);
        return reviews.length === before;
      };
      // Kept once the RBAC watches run (and again after any RBAC change other tests make meanwhile).
      await waitFor(keptNow);
      now += 29_000;
      await waitFor(keptNow);
      now += 31_000;
      expect(await keptNow()).toBe(false);
    } finally {
      access.close();
      await clients.close();
    }
  });
});
