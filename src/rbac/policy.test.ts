import { describe, expect, it } from 'vitest';
import type { Principal } from './principal.js';
import { resourceRoleSchema, type RoleName } from '../config/schema.js';
import { decide, type PolicyFacts, type PolicyMode } from './policy.js';
import { parseRequestInfo } from './request-info.js';

const principal = (role: RoleName, roles: string[] = []): Principal => ({ username: `${role}-1`, role, roles });
const facts = (overrides: Partial<PolicyFacts> = {}): PolicyFacts => ({
  definitions: [
    resourceRoleSchema.parse({ name: 'no-prod-secrets', resources: ['secrets'], namespaces: ['prod'], verbs: ['*'], effect: 'deny' }),
    resourceRoleSchema.parse({ name: 'dev-deleter', resources: ['pods'], namespaces: ['dev'], verbs: ['delete'] }),
  ],
  names: ['secrets', 'secret'],
  hasGrant: () => false,
  ownNamespace: 'pilothouse',
  ...overrides,
});
const verdict = (who: Principal, method: string, url: string, mode: PolicyMode, extra: Partial<PolicyFacts> = {}) => {
  const decision = decide(who, parseRequestInfo(method, url), mode, facts(extra));
  return decision.allowed ? 'allow' : decision.code;
};

describe('the one policy decision', () => {
  const user = principal('user');
  const admin = principal('admin');
  const viewer = principal('viewer');

  it.each([
    // mode read: reads, reviews and dry runs only, whatever the role
    [admin, 'GET', '/api/v1/namespaces/a/pods', 'read', 'allow'],
    [admin, 'GET', '/api/v1/namespaces/a/pods/p/log?follow=true', 'read', 'allow'],
    [admin, 'POST', '/api/v1/namespaces/a/configmaps', 'read', 'read_only'],
    [admin, 'POST', '/api/v1/namespaces/a/configmaps?dryRun=All', 'read', 'allow'],
    [admin, 'DELETE', '/api/v1/namespaces/prod', 'read', 'read_only'],
    [admin, 'POST', '/api/v1/namespaces/a/pods/p/exec', 'read', 'read_only'],
    [admin, 'GET', '/api/v1/namespaces/a/pods/p/exec', 'read', 'read_only'],
    [user, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', 'read', 'allow'],
    [user, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', 'read', 'allow'],
    [user, 'GET', '/version', 'read', 'allow'],
    [user, 'GET', '/apis/apps/v1', 'read', 'allow'],
    [user, 'GET', '/api/v1', 'read', 'allow'],
    [user, 'POST', '/api/v1/namespaces/a/serviceaccounts/default/token', 'read', 'read_only'],
    // mode read: dryRun=All is a read only where the API server honours it (src/rbac/dry-run-table.ts)
    [admin, 'POST', '/api/v1/namespaces/kube-system/serviceaccounts/ctrl/token?dryRun=All', 'read', 'read_only'],
    [user, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews?dryRun=All', 'read', 'read_only'],
    [user, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews?dryRun=All', 'read', 'read_only'],
    [user, 'POST', '/apis/authorization.k8s.io/v1/namespaces/a/localsubjectaccessreviews?dryRun=All', 'read', 'read_only'],
    [user, 'PUT', '/apis/certificates.k8s.io/v1/certificatesigningrequests/c/approval?dryRun=All', 'read', 'read_only'],
    [user, 'POST', '/api/v1/namespaces/a/pods/p/binding?dryRun=All', 'read', 'read_only'],
    [user, 'POST', '/api/v1/namespaces/a/bindings?dryRun=All', 'read', 'read_only'],
    [user, 'POST', '/api/v1/namespaces/a/pods/p/eviction?dryRun=All', 'read', 'read_only'],
    [user, 'PATCH', '/api/v1/namespaces/a/pods/p/ephemeralcontainers?dryRun=All', 'read', 'read_only'],
    [user, 'PUT', '/api/v1/namespaces/a/finalize?dryRun=All', 'read', 'read_only'],
    [user, 'POST', '/apis/example.dev/v1/namespaces/a/widgets?dryRun=All', 'read', 'read_only'],
    [user, 'PATCH', '/apis/apps/v1/namespaces/a/deployments/d/scale?dryRun=All', 'read', 'allow'],
    [user, 'PATCH', '/apis/apps/v1/namespaces/a/deployments/d?dryRun=All', 'read', 'allow'],
    [user, 'DELETE', '/api/v1/namespaces/a/pods/p?dryRun=All', 'read', 'allow'],
    [user, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews/x/y', 'read', 'read_only'],
    // mode approved: consent, not authorization; the role decides as for direct, delete stays admin-only
    [user, 'POST', '/api/v1/namespaces/a/configmaps', 'approved', 'approval_required'],
    [user, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', 'approved', 'approval_required'],
    [admin, 'POST', '/api/v1/namespaces/a/configmaps', 'approved', 'allow'],
    [user, 'GET', '/api/v1/namespaces/a/configmaps', 'approved', 'allow'],
    [user, 'DELETE', '/api/v1/namespaces/a/pods/p', 'approved', 'role'],
    [admin, 'DELETE', '/api/v1/namespaces/a/pods/p', 'approved', 'allow'],
    [viewer, 'GET', '/api/v1/pods', 'approved', 'role'],
    [viewer, 'GET', '/api/v1/pods', 'read', 'role'],
    // mode direct: approval entries need a grant
    [user, 'POST', '/api/v1/namespaces/a/configmaps', 'direct', 'approval_required'],
    [user, 'POST', '/api/v1/namespaces/a/serviceaccounts/s/token?dryRun=All', 'direct', 'approval_required'],
    [user, 'POST', '/api/v1/namespaces/a/configmaps?dryRun=All', 'direct', 'allow'],
    // paths the API server would read differently: refused in every mode, for every role
    [admin, 'GET', '/apis//v1/namespaces/a/pods', 'direct', 'invalid_request'],
    [admin, 'DELETE', '/api/v1/namespaces/a/pods/../../kube-system', 'approved', 'invalid_request'],
    [user, 'GET', '/api/v1/namespaces/a/pods/./p', 'read', 'invalid_request'],
    [viewer, 'GET', '/api/v1/pods', 'direct', 'allow'],
    [viewer, 'PATCH', '/apis/apps/v1/namespaces/a/deployments/d/scale', 'direct', 'role'],
    // Pilothouse's own namespace is closed to every role but admin
    [user, 'GET', '/api/v1/namespaces/pilothouse/secrets/jwt', 'read', 'own_namespace'],
    [user, 'GET', '/api/v1/namespaces/pilothouse/configmaps', 'direct', 'own_namespace'],
    [user, 'POST', '/api/v1/namespaces/pilothouse/pods/ph-0/exec', 'approved', 'own_namespace'],
    [user, 'PATCH', '/apis/coordination.k8s.io/v1/namespaces/pilothouse/leases/pilothouse', 'approved', 'own_namespace'],
    [user, 'PATCH', '/apis/pilothouse.dev/v1alpha1/namespaces/pilothouse/accessrequests/r/status', 'approved', 'own_namespace'],
    [user, 'DELETE', '/api/v1/namespaces/pilothouse', 'approved', 'own_namespace'],
    [user, 'GET', '/api/v1/namespaces/pilothouse/pods', 'read', 'allow'],
    [user, 'GET', '/api/v1/namespaces/pilothouse/pods/ph-0/log', 'read', 'own_namespace'],
    [viewer, 'GET', '/api/v1/namespaces/pilothouse/pods/ph-0/log', 'direct', 'own_namespace'],
    [admin, 'GET', '/api/v1/namespaces/pilothouse/secrets/jwt', 'approved', 'allow'],
    // every kind that carries secret values is closed there (src/rbac/secret-kinds.ts), MCPServers included
    [user, 'GET', '/apis/pilothouse.dev/v1alpha1/namespaces/pilothouse/mcpservers/github', 'read', 'own_namespace'],
    [user, 'GET', '/apis/pilothouse.dev/v1alpha1/namespaces/pilothouse/mcpservers', 'direct', 'own_namespace'],
    [admin, 'GET', '/apis/pilothouse.dev/v1alpha1/namespaces/pilothouse/mcpservers/github', 'read', 'allow'],
    // resource-level roles: deny overrides, in every mode
    [principal('user', ['no-prod-secrets']), 'GET', '/api/v1/namespaces/prod/secrets/db', 'read', 'resource_role'],
    [principal('user', ['no-prod-secrets']), 'GET', '/api/v1/namespaces/prod/secrets/db', 'direct', 'resource_role'],
    [principal('admin', ['no-prod-secrets']), 'GET', '/api/v1/namespaces/prod/secrets/db', 'approved', 'resource_role'],
    [principal('user', ['no-prod-secrets']), 'GET', '/api/v1/namespaces/dev/secrets/db', 'read', 'allow'],
    [principal('user', ['dev-deleter']), 'DELETE', '/api/v1/namespaces/dev/pods/p', 'direct', 'allow'],
    [principal('user', ['dev-deleter']), 'DELETE', '/api/v1/namespaces/prod/pods/p', 'direct', 'role'],
  ] as const)('%# %s %s %s (%s) → %s', (who, method, url, mode, expected) => {
    const names = url.includes('/pods') ? ['pods', 'pod', 'po'] : ['secrets', 'secret'];
    expect(verdict(who, method, url, mode, { names })).toBe(expected);
  });

  it('decides a server-side apply as patch and as create of its object: a deny of either refuses it', () => {
    const role = (name: string, verbs: string[], effect: 'allow' | 'deny') =>
      resourceRoleSchema.parse({ name, resources: ['configmaps'], namespaces: ['a'], verbs, effect });
    const definitions = [role('no-create', ['create'], 'deny'), role('no-patch', ['patch'], 'deny'), role('no-update', ['update'], 'deny')];
    const apply = { ...parseRequestInfo('PATCH', '/api/v1/namespaces/a/configmaps/c'), apply: true };
    const applied = (roles: string[], mode: PolicyMode = 'direct') =>
      decide(principal('admin', roles), apply, mode, facts({ definitions, names: ['configmaps', 'configmap', 'cm'] }));
    expect(applied([])).toMatchObject({ allowed: true });
    expect(applied(['no-update'])).toMatchObject({ allowed: true });
    expect(applied(['no-create'])).toMatchObject({
      allowed: false,
      code: 'resource_role',
      reason: 'a resource-level role denies create configmaps c in namespace a (a server-side apply creates the object when it does not exist)',
    });
    expect(applied(['no-create'], 'approved')).toMatchObject({ allowed: false, code: 'resource_role' });
    expect(applied(['no-patch'])).toMatchObject({
      allowed: false,
      code: 'resource_role',
      reason: 'a resource-level role denies patch configmaps c in namespace a',
    });
    // A server-side dry run of an apply persists nothing either way: a read, as before.
    const dryApply = { ...parseRequestInfo('PATCH', '/api/v1/namespaces/a/configmaps/c?dryRun=All'), apply: true };
    expect(decide(principal('user'), dryApply, 'read', facts({ definitions: [], names: ['configmaps'] }))).toMatchObject({ allowed: true });
    // The same PATCH without the apply mark is a patch only (a create deny does not touch a JSON or merge patch).
    expect(decide(principal('admin', ['no-create']), { ...apply, apply: false }, 'direct', facts({ definitions, names: ['configmaps'] }))).toMatchObject({
      allowed: true,
    });
  });

  it('fails closed when the names cannot be resolved and resource-level roles apply', () => {
    expect(verdict(principal('user', ['no-prod-secrets']), 'GET', '/api/v1/namespaces/dev/secrets', 'direct', { names: undefined })).toBe('discovery_failed');
    expect(verdict(user, 'GET', '/api/v1/namespaces/dev/secrets', 'direct', { names: undefined })).toBe('allow');
  });

  it('lets only a grant stand in for approval, the same in direct and approved mode; never in read mode', () => {
    expect(verdict(user, 'POST', '/api/v1/namespaces/a/configmaps', 'direct', { hasGrant: () => true })).toBe('allow');
    expect(verdict(user, 'POST', '/api/v1/namespaces/a/configmaps', 'approved', { hasGrant: () => true })).toBe('allow');
    expect(verdict(user, 'POST', '/api/v1/namespaces/a/configmaps', 'read', { hasGrant: () => true })).toBe('read_only');
    expect(verdict(user, 'DELETE', '/api/v1/namespaces/a/configmaps/c', 'approved', { hasGrant: () => true })).toBe('role');
  });

  it('tells the model and the user that an access request is needed, and what it must cover', () => {
    const decision = decide(user, parseRequestInfo('POST', '/api/v1/namespaces/team/configmaps'), 'approved', facts());
    expect(decision).toMatchObject({ allowed: false, code: 'approval_required', permission: 'execute_write' });
    expect(decision.reason).toBe(
      'role user needs an approved access request to execute write (create configmaps in namespace team): ' +
        'request access (permission execute_write, resource configmaps, namespace team) and try again once an admin approved it',
    );
  });

  it('says why a dry run of a token request is not a read', () => {
    const decision = decide(admin, parseRequestInfo('POST', '/api/v1/namespaces/kube-system/serviceaccounts/ctrl/token?dryRun=All'), 'read', facts());
    expect(decision.reason).toContain('dryRun=All does not make this request a dry run');
  });

  it('hides denied namespaces and the own namespace from lists across all namespaces', () => {
    const decision = decide(principal('user', ['no-prod-secrets']), parseRequestInfo('GET', '/api/v1/secrets'), 'direct', facts());
    expect(decision.allowed).toBe(true);
    expect([...(decision.hiddenNamespaces ?? [])].sort()).toEqual(['pilothouse', 'prod']);
    const servers = decide(user, parseRequestInfo('GET', '/apis/pilothouse.dev/v1alpha1/mcpservers'), 'read', facts());
    expect([...(servers.hiddenNamespaces ?? [])]).toEqual(['pilothouse']);
    expect(decide(admin, parseRequestInfo('GET', '/api/v1/secrets'), 'direct', facts()).hiddenNamespaces).toBeUndefined();
  });

  it('says in words what a read-only call tried to do', () => {
    const decision = decide(user, parseRequestInfo('POST', '/api/v1/namespaces/x/pods'), 'read', facts());
    expect(decision.reason).toBe('this command ran as read-only and tried to create pods in namespace x; it needs approval');
  });
});
