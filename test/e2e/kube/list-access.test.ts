import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeIdentityClient } from '../../../src/kube/clients.js';
import type { ResourceType } from '../../../src/kube/discovery.js';
import { listResources } from '../../../src/kube/list-view/rows.js';
import { ListRefused } from '../../../src/kube/cache/list-access.js';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * One shared cache per kind under the service's identity, and per caller the namespaces the cluster lets them
 * list (docs/adr/0033): checked against the API server's own answer for impersonated users with
 * namespace-scoped, cluster-scoped, resourceNames and group-bound rules, through RBAC changes, and with our
 * deny roles on top.
 */
const a = useNamespace('la-a');
const b = useNamespace('la-b');
const c = useNamespace('la-c');
const prefix = uniqueName('la');
const user = {
  namespaced: `${prefix}-namespaced`,
  cluster: `${prefix}-cluster`,
  names: `${prefix}-names`,
  member: `${prefix}-member`,
  nobody: `${prefix}-nobody`,
  wide: `${prefix}-wide`,
};
const team = `${prefix}-team`;
let service: TestService;
let configmaps: ResourceType;

const kubectl = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), args);
const role = (name: string, namespace: string, rule: string): string =>
  `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: ${name}, namespace: ${namespace}}\nrules: [${rule}]\n`;
const binding = (name: string, namespace: string, subject: string): string =>
  `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: ${name}, namespace: ${namespace}}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ${name}}\nsubjects: [${subject}]\n`;
const userSubject = (name: string): string => `{apiGroup: rbac.authorization.k8s.io, kind: User, name: ${name}}`;
const listConfigMaps = '{apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}';

/** The rows of our three namespaces, as `namespace/name`, sorted. */
const ours = (entries: { namespace?: string | null; name: string }[]): string[] =>
  entries
    .filter((entry) => [a.name, b.name, c.name].includes(entry.namespace ?? ''))
    .map((entry) => `${entry.namespace}/${entry.name}`)
    .sort();

/** What the API server itself lets `client` list: across all namespaces, or namespace by namespace where that is refused. */
async function apiServerAnswer(client: KubeIdentityClient, namespace?: string): Promise<string[] | 'refused'> {
  const list = async (path: string): Promise<string[] | 'refused'> => {
    const response = await client.rest.raw('GET', path, { target: 'configmaps' }).catch((error: { code?: string }) => {
      if (error.code === 'FORBIDDEN') return undefined;
      throw error;
    });
    if (!response) return 'refused';
    const body = (await response.json()) as { items: { metadata: { name: string; namespace: string } }[] };
    return ours(body.items.map((item) => item.metadata));
  };
  if (namespace) return list(`/api/v1/namespaces/${namespace}/configmaps`);
  const everywhere = await list('/api/v1/configmaps');
  if (everywhere !== 'refused') return everywhere;
  const each = await Promise.all([a.name, b.name, c.name].map((name) => list(`/api/v1/namespaces/${name}/configmaps`)));
  const allowed = each.filter((answer): answer is string[] => answer !== 'refused');
  return allowed.length === 0 ? 'refused' : allowed.flat().sort();
}

/** What the shared cache shows `client`, or 'refused' (the API server's 403). */
async function ourAnswer(client: KubeIdentityClient, namespace?: string): Promise<string[] | 'refused'> {
  try {
    const view = await service.deps.home.caches.view(client, configmaps, namespace);
    return ours(listResources(view, { type: configmaps, namespace }));
  } catch (error) {
    if (error instanceof ListRefused) {
      expect(error.code).toBe('FORBIDDEN');
      return 'refused';
    }
    throw error;
  }
}

const as = (name: string, groups: string[] = []): KubeIdentityClient => service.deps.home.kube.forIdentity({ user: name, groups });

/** Ours equals the API server's answer, across all namespaces and in each of ours. */
async function expectSameAsApiServer(client: KubeIdentityClient): Promise<void> {
  for (const namespace of [undefined, a.name, b.name, c.name]) {
    expect(await ourAnswer(client, namespace), `${client.identity} in ${namespace ?? 'all namespaces'}`).toEqual(await apiServerAnswer(client, namespace));
  }
}

beforeAll(async () => {
  for (const namespace of [a.name, b.name, c.name]) {
    await kubectl('create', 'configmap', 'one', '-n', namespace);
    await kubectl('create', 'configmap', 'two', '-n', namespace);
  }
  const yaml = [
    role('namespaced', a.name, listConfigMaps) + '---\n' + binding('namespaced', a.name, userSubject(user.namespaced)),
    role('names', a.name, '{apiGroups: [""], resources: [configmaps], resourceNames: [one], verbs: [get, list, watch]}') +
      '---\n' +
      binding('names', a.name, userSubject(user.names)),
    role('team', b.name, listConfigMaps) + '---\n' + binding('team', b.name, `{apiGroup: rbac.authorization.k8s.io, kind: Group, name: ${team}}`),
    role('wide', a.name, listConfigMaps) + '---\n' + binding('wide', a.name, userSubject(user.wide)),
    role('wide', b.name, listConfigMaps) + '---\n' + binding('wide', b.name, userSubject(user.wide)),
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: ${prefix}-cluster}\nrules: [${listConfigMaps}]\n---\n` +
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: ${prefix}-cluster}\n` +
      `roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${prefix}-cluster}\nsubjects: [${userSubject(user.cluster)}]\n`,
  ].join('---\n');
  await applyYaml(clusterKubeconfig(), yaml);
  service = await startTestService({
    config: {
      authorization: {
        impersonation: { enabled: true, mappings: { viewer: user.wide, user: user.wide, admin: user.wide } },
        roles: [{ name: 'no-a', resources: ['*'], namespaces: [a.name], verbs: ['*'], effect: 'deny' }],
      },
    },
  });
  configmaps = await service.deps.home.discovery.resolve('configmaps');
});

afterAll(async () => {
  await service?.close();
  await tryKubectl(clusterKubeconfig(), ['delete', 'clusterrolebinding,clusterrole', `${prefix}-cluster`, '--ignore-not-found']);
});

describe('what a caller sees of the shared cache is what the API server lets them list', () => {
  it('namespace-scoped, cluster-scoped, resourceNames and group-bound rules, and none', async () => {
    await expectSameAsApiServer(as(user.namespaced));
    await expectSameAsApiServer(as(user.cluster));
    await expectSameAsApiServer(as(user.names));
    await expectSameAsApiServer(as(user.member, [team]));
    await expectSameAsApiServer(as(user.member));
    await expectSameAsApiServer(as(user.nobody));
    // The answers themselves, so that the comparison is not between two empty lists.
    expect(await ourAnswer(as(user.namespaced))).toEqual([`${a.name}/kube-root-ca.crt`, `${a.name}/one`, `${a.name}/two`]);
    expect(await ourAnswer(as(user.cluster))).toHaveLength(9);
    expect(await ourAnswer(as(user.names), a.name)).toBe('refused');
    expect(await ourAnswer(as(user.member, [team]))).toEqual([`${b.name}/kube-root-ca.crt`, `${b.name}/one`, `${b.name}/two`]);
    expect(await ourAnswer(as(user.nobody))).toBe('refused');
    // One shared cache served all of them.
    expect(service.deps.home.caches.cacheCount('configmaps')).toBe(1);
  });

  it('follows a RoleBinding added and removed', async () => {
    const nobody = as(user.nobody);
    expect(await ourAnswer(nobody, c.name)).toBe('refused');
    await applyYaml(clusterKubeconfig(), role('late', c.name, listConfigMaps) + '---\n' + binding('late', c.name, userSubject(user.nobody)));
    await waitFor(async () => (await ourAnswer(nobody, c.name)) !== 'refused', 2_000, 100);
    await expectSameAsApiServer(nobody);
    expect(await ourAnswer(nobody)).toEqual([`${c.name}/kube-root-ca.crt`, `${c.name}/one`, `${c.name}/two`]);
    await kubectl('delete', 'rolebinding', 'late', '-n', c.name);
    await waitFor(async () => (await ourAnswer(nobody)) === 'refused', 2_000, 100);
    await expectSameAsApiServer(nobody);
  });
});

describe('the list route', () => {
  const names = (body: { items: { namespace: string; name: string }[] }): string[] => ours(body.items);

  it('shows an impersonated caller the namespaces they may list, and our deny roles hide more', async () => {
    const viewer = await service.createUser('viewer');
    const denied = await service.createUser('viewer', { roles: ['no-a'] });
    const all = await service.api('GET', '/api/k8s/configmaps', { token: viewer.token });
    expect(all.status).toBe(200);
    expect(names(all.body)).toEqual(await apiServerAnswer(as(user.wide)));
    expect(names(all.body)).toHaveLength(6);
    const less = await service.api('GET', '/api/k8s/configmaps', { token: denied.token });
    expect(less.status).toBe(200);
    expect(names(less.body)).toEqual([`${b.name}/kube-root-ca.crt`, `${b.name}/one`, `${b.name}/two`]);
    const refused = await service.api('GET', `/api/k8s/configmaps?namespace=${c.name}`, { token: viewer.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    // The first caller's answer is not handed to the second, who sees less (and back).
    expect(names((await service.api('GET', '/api/k8s/configmaps', { token: viewer.token })).body)).toHaveLength(6);
  });
});
