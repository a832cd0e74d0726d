import { describe, expect, it } from 'vitest';
import { resourceRoleSchema } from '../config/schema.js';
import type { ResourceType } from '../kube/discovery.js';
import type { Principal } from './principal.js';
import { clusterAccessSummary, rulesForCluster } from './cluster-rules.js';
import { PolicyEngine } from './policy-engine.js';
import { parseRequestInfo } from './request-info.js';

const rule = (input: Record<string, unknown>) => resourceRoleSchema.parse(input);
const pods: ResourceType = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', singular: 'pod', shortNames: ['po'], namespaced: true, verbs: [] };

/** A deny of everything on prod, an allow of pod deletes on dev, and a rule that holds everywhere. */
const roles = [
  rule({ name: 'oncall', resources: ['*'], namespaces: ['*'], verbs: ['*'], effect: 'deny', clusters: ['prod'] }),
  rule({ name: 'oncall', resources: ['pods'], namespaces: ['*'], verbs: ['delete'], clusters: ['dev'] }),
  rule({ name: 'no-secrets', resources: ['secrets'], namespaces: ['*'], verbs: ['*'], effect: 'deny' }),
];

/** The PolicyEngine the lead builds per cluster: the rules that hold there, discovery, no grants. */
const engineFor = (clusterName: string) =>
  new PolicyEngine({
    definitions: rulesForCluster(roles, clusterName),
    ownNamespace: 'pilothouse',
    resourceTypes: async () => [pods],
    grantCheck: () => false,
  });

const oncall: Principal = { username: 'ann', role: 'user', roles: ['oncall', 'no-secrets'] };
const viewer: Principal = { username: 'val', role: 'viewer', roles: ['oncall'] };
const read = parseRequestInfo('GET', '/api/v1/namespaces/shop/pods/web');
const remove = parseRequestInfo('DELETE', '/api/v1/namespaces/shop/pods/web');

describe('role rules per cluster', () => {
  it('keeps the rules naming the cluster and those without clusters', () => {
    expect(rulesForCluster(roles, 'prod').map((entry) => [entry.name, entry.effect])).toEqual([
      ['oncall', 'deny'],
      ['no-secrets', 'deny'],
    ]);
    expect(rulesForCluster(roles, 'dev').map((entry) => [entry.name, entry.effect])).toEqual([
      ['oncall', 'allow'],
      ['no-secrets', 'deny'],
    ]);
    expect(rulesForCluster(roles, 'home').map((entry) => entry.name)).toEqual(['no-secrets']);
  });

  it('denies on the cluster a deny names and nowhere else', async () => {
    expect(await engineFor('prod').authorize(oncall, read, 'direct')).toMatchObject({ allowed: false, code: 'resource_role' });
    expect((await engineFor('dev').authorize(oncall, read, 'direct')).allowed).toBe(true);
    expect((await engineFor('home').authorize(oncall, read, 'direct')).allowed).toBe(true);
  });

  it('extends the matrix only on the cluster an allow names', async () => {
    // Role user may not delete by the matrix; the dev allow extends it on dev only.
    expect((await engineFor('dev').authorize(oncall, remove, 'direct')).allowed).toBe(true);
    expect(await engineFor('home').authorize(oncall, remove, 'direct')).toMatchObject({ allowed: false, code: 'role' });
    expect(await engineFor('prod').authorize(oncall, remove, 'direct')).toMatchObject({ allowed: false, code: 'resource_role' });
  });

  it('applies a rule without clusters on every cluster', async () => {
    const secret = parseRequestInfo('GET', '/api/v1/namespaces/shop/secrets/db');
    for (const name of ['prod', 'dev', 'home', 'a-cluster-added-later']) {
      expect(await engineFor(name).authorize(oncall, secret, 'direct'), name).toMatchObject({ allowed: false, code: 'resource_role' });
    }
  });
});

describe('the caller access summary of GET /api/clusters', () => {
  it('names the roles that hold there and whether some write is open', () => {
    expect(clusterAccessSummary(oncall, roles, 'prod')).toEqual({ role: 'user', roles: ['oncall', 'no-secrets'], write: false });
    expect(clusterAccessSummary(oncall, roles, 'dev')).toEqual({ role: 'user', roles: ['oncall', 'no-secrets'], write: true });
    expect(clusterAccessSummary(oncall, roles, 'home')).toEqual({ role: 'user', roles: ['no-secrets'], write: true });
  });

  it('gives a viewer write only where an allow rule extends a write verb', () => {
    expect(clusterAccessSummary(viewer, roles, 'dev')).toEqual({ role: 'viewer', roles: ['oncall'], write: true });
    expect(clusterAccessSummary(viewer, roles, 'home')).toEqual({ role: 'viewer', roles: [], write: false });
    expect(clusterAccessSummary(viewer, roles, 'prod').write).toBe(false);
  });

  it('counts write verbs denied everywhere by several rules together', () => {
    const split = [
      rule({ name: 'frozen', resources: ['*'], namespaces: ['*'], verbs: ['create', 'update'], effect: 'deny' }),
      rule({ name: 'frozen', resources: ['*'], namespaces: ['*'], verbs: ['patch', 'delete'], effect: 'deny', clusters: ['prod'] }),
    ];
    const admin: Principal = { username: 'root', role: 'admin', roles: ['frozen'] };
    expect(clusterAccessSummary(admin, split, 'prod').write).toBe(false);
    expect(clusterAccessSummary(admin, split, 'dev').write).toBe(true);
    // A deny limited to some namespaces leaves writes elsewhere open.
    const partial = [rule({ name: 'frozen', resources: ['*'], namespaces: ['kube-system'], verbs: ['*'], effect: 'deny' })];
    expect(clusterAccessSummary(admin, partial, 'prod').write).toBe(true);
  });
});
