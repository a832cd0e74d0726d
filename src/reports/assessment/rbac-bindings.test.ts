import { describe, expect, it } from 'vitest';
import { bindingFindings, type BindingView } from './rbac-bindings.js';
import type { RbacRole, RoleBinding } from './rbac-rules.js';

const subject = { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' };
const binding = (roleName: string, extra: Partial<RoleBinding> = {}): RoleBinding => ({
  metadata: { name: `bind-${roleName}` },
  roleRef: { kind: 'ClusterRole', name: roleName },
  subjects: [subject],
  ...extra,
});
const view = (role: RbacRole | undefined, bound: RoleBinding, kind: BindingView['kind'] = 'ClusterRoleBinding'): BindingView => ({
  binding: bound,
  kind,
  role,
});
const rules = (findings: ReturnType<typeof bindingFindings>) => findings.map((finding) => `${finding.rule}:${finding.severity}`);

describe('RBAC review of one binding', () => {
  it('reports cluster-admin once (critical cluster-wide, high in a namespace)', () => {
    const admin = { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] };
    expect(rules(bindingFindings(view(admin, binding('cluster-admin'))))).toEqual(['rbac.cluster-admin-binding:critical']);
    const namespaced = binding('cluster-admin', { metadata: { name: 'ns-admin', namespace: 'shop' } });
    expect(rules(bindingFindings(view(admin, namespaced, 'RoleBinding')))).toEqual(['rbac.cluster-admin-binding:high']);
  });

  it('finds wildcards, Secret reads everywhere, escalation verbs and pod exec in kube-system', () => {
    const role: RbacRole = {
      rules: [
        { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind', 'escalate'] },
        { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] },
        { apiGroups: ['apps'], resources: ['*'], verbs: ['get'] },
      ],
    };
    expect(rules(bindingFindings(view(role, binding('ops'))))).toEqual([
      'rbac.wildcard:high',
      'rbac.secrets-cluster-wide:high',
      'rbac.escalation-verbs:high',
      'rbac.kube-system-pods:high',
    ]);
  });

  it('leaves rules limited by resourceNames, other namespaces and Kubernetes’ own bindings alone', () => {
    const named: RbacRole = { rules: [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['tls'], verbs: ['get'] }] };
    expect(bindingFindings(view(named, binding('tls-reader')))).toEqual([]);
    const exec: RbacRole = { rules: [{ apiGroups: [''], resources: ['pods', 'pods/exec'], verbs: ['create'] }] };
    expect(bindingFindings(view(exec, binding('debug', { metadata: { name: 'debug', namespace: 'shop' } }), 'RoleBinding'))).toEqual([]);
    const builtIn = binding('cluster-admin', { metadata: { name: 'cluster-admin', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } } });
    expect(bindingFindings(view(undefined, builtIn))).toEqual([]);
  });

  it('names default service accounts that are bound', () => {
    const bound = binding('view', { metadata: { name: 'default-view', namespace: 'shop' }, subjects: [{ kind: 'ServiceAccount', name: 'default' }] });
    const findings = bindingFindings(view({ rules: [] }, bound, 'RoleBinding'));
    expect(rules(findings)).toEqual(['rbac.default-service-account:medium']);
    expect(findings[0]!.title).toContain('ServiceAccount shop/default');
  });
});
