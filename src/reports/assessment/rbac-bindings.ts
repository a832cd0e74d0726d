import type { Finding, FindingObject, Severity } from '../document/document.js';
import { builtIn, describeSubject, escalationVerbsOf, roleGrants, wildcardsOf, type RbacRole, type RoleBinding } from './rbac-rules.js';

/** A binding with the role it refers to (undefined when the role is missing or not visible). */
export interface BindingView {
  binding: RoleBinding;
  kind: 'ClusterRoleBinding' | 'RoleBinding';
  role: RbacRole | undefined;
}

type Check = (view: BindingView) => Finding[];

function objectOf(view: BindingView): FindingObject {
  return { kind: view.kind, name: view.binding.metadata?.name ?? '', namespace: view.binding.metadata?.namespace };
}

function subjectsOf(view: BindingView): string {
  const subjects = (view.binding.subjects ?? []).map(describeSubject);
  const shown = subjects.slice(0, 5).join(', ');
  return subjects.length > 5 ? `${shown} and ${subjects.length - 5} more` : shown || 'no subjects';
}

function where(view: BindingView): string {
  return view.kind === 'ClusterRoleBinding' ? 'in every namespace' : `in namespace ${view.binding.metadata?.namespace ?? ''}`;
}

function finding(view: BindingView, rule: string, severity: Severity, text: { title: string; why: string; fix: string }): Finding {
  return { rule, severity, object: objectOf(view), ...text };
}

const clusterAdmin: Check = (view) => {
  if (view.binding.roleRef?.kind !== 'ClusterRole' || view.binding.roleRef.name !== 'cluster-admin') return [];
  const clusterWide = view.kind === 'ClusterRoleBinding';
  return [
    finding(view, 'rbac.cluster-admin-binding', clusterWide ? 'critical' : 'high', {
      title: `${view.kind} ${view.binding.metadata?.name ?? ''} grants cluster-admin ${where(view)} to ${subjectsOf(view)}`,
      why: 'cluster-admin may do anything to every object, including reading every Secret and changing RBAC itself (CIS 5.1.1).',
      fix: 'Bind a role that grants only what the subject needs; keep cluster-admin for break-glass accounts.',
    }),
  ];
};

const wildcards: Check = (view) => {
  const wildcard = wildcardsOf(view.role);
  if (!wildcard) return [];
  const what = wildcard === 'all' ? 'every verb on every resource' : wildcard === 'verbs' ? 'every verb (`*`)' : 'every resource (`*`)';
  return [
    finding(view, 'rbac.wildcard', wildcard === 'all' && view.kind === 'ClusterRoleBinding' ? 'critical' : 'high', {
      title: `${view.binding.roleRef?.kind ?? 'Role'} ${view.binding.roleRef?.name ?? ''} grants ${what} ${where(view)} to ${subjectsOf(view)}`,
      why: 'Wildcards grant resources and verbs that do not exist yet too, and usually far more than the subject needs (CIS 5.1.3).',
      fix: 'List the resources and verbs the subject needs instead of `*`.',
    }),
  ];
};

const secretsEverywhere: Check = (view) => {
  if (view.kind !== 'ClusterRoleBinding' || !roleGrants(view.role, { group: '', resource: 'secrets', verbs: ['get', 'list', 'watch'] })) return [];
  return [
    finding(view, 'rbac.secrets-cluster-wide', 'high', {
      title: `${view.binding.roleRef?.name ?? ''} lets ${subjectsOf(view)} read Secrets in every namespace`,
      why: 'Secrets hold credentials and tokens; reading them in every namespace lets the subject act as any workload (CIS 5.1.2).',
      fix: 'Grant Secret reads in the namespaces that need them with RoleBindings, ideally limited by resourceNames.',
    }),
  ];
};

const escalation: Check = (view) => {
  const verbs = escalationVerbsOf(view.role);
  if (verbs.length === 0) return [];
  return [
    finding(view, 'rbac.escalation-verbs', 'high', {
      title: `${view.binding.roleRef?.name ?? ''} grants ${verbs.join(', ')} ${where(view)} to ${subjectsOf(view)}`,
      why: 'escalate and bind let a subject grant itself permissions it does not have; impersonate lets it act as other users (CIS 5.1.8).',
      fix: 'Remove escalate, bind and impersonate unless the subject administers RBAC, and then limit them by resourceNames.',
    }),
  ];
};

const kubeSystemPods: Check = (view) => {
  const inKubeSystem = view.kind === 'ClusterRoleBinding' || view.binding.metadata?.namespace === 'kube-system';
  if (!inKubeSystem) return [];
  const create = roleGrants(view.role, { group: '', resource: 'pods', verbs: ['create'] });
  const exec = roleGrants(view.role, { group: '', resource: 'pods/exec', verbs: ['create', 'get'] });
  if (!create && !exec) return [];
  const what = [create ? 'create pods' : '', exec ? 'exec into pods' : ''].filter(Boolean).join(' and ');
  return [
    finding(view, 'rbac.kube-system-pods', 'high', {
      title: `${view.binding.roleRef?.name ?? ''} lets ${subjectsOf(view)} ${what} in kube-system`,
      why: 'A pod in kube-system can run with the service accounts of the control plane add-ons and reach their credentials (CIS 5.1.4).',
      fix: 'Do not grant pod creation or exec in kube-system to anyone but cluster administrators.',
    }),
  ];
};

const defaultServiceAccounts: Check = (view) =>
  (view.binding.subjects ?? [])
    .filter((subject) => subject.kind === 'ServiceAccount' && subject.name === 'default')
    .map((subject) =>
      finding(view, 'rbac.default-service-account', 'medium', {
        title: `${view.kind} ${view.binding.metadata?.name ?? ''} binds ${view.binding.roleRef?.name ?? ''} to ${describeSubject({ ...subject, namespace: subject.namespace ?? view.binding.metadata?.namespace })}`,
        why: 'Every pod that names no service account runs as `default`: all of them get the permissions of this binding (CIS 5.1.5).',
        fix: 'Create a dedicated service account for the workload that needs the role and bind that instead.',
      }),
    );

/** Findings of one binding; bindings Kubernetes itself creates are not reported. cluster-admin bindings are reported once, as such. */
export function bindingFindings(view: BindingView): Finding[] {
  if (builtIn(view.binding)) return [];
  const admin = clusterAdmin(view);
  if (admin.length > 0) return [...admin, ...defaultServiceAccounts(view)];
  return [wildcards, secretsEverywhere, escalation, kubeSystemPods, defaultServiceAccounts].flatMap((check) => check(view));
}
