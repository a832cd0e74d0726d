import type { Metadata } from '../context/kube-shapes.js';
import type { RawObject } from '../context/requester-reader.js';

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
}

export interface RbacRole extends RawObject {
  metadata?: Metadata;
  rules?: PolicyRule[];
}

export interface Subject {
  kind?: string;
  name?: string;
  namespace?: string;
}

export interface RoleBinding extends RawObject {
  metadata?: Metadata;
  roleRef?: { kind?: string; name?: string };
  subjects?: Subject[];
}

/** What a rule is asked about: group, resource (`pods/exec` for a subresource), any of the verbs. */
export interface Access {
  group: string;
  resource: string;
  verbs: readonly string[];
}

const any = (values: string[] | undefined, wanted: string): boolean => (values ?? []).some((value) => value === '*' || value === wanted);

function coversResource(resources: string[] | undefined, resource: string): boolean {
  const [base, subresource] = resource.split('/');
  return (resources ?? []).some((value) => value === '*' || value === resource || (subresource !== undefined && value === `${base}/*`));
}

/** Whether a rule grants the access on every object of the resource (rules limited to resourceNames do not). */
export function grants(rule: PolicyRule, access: Access): boolean {
  if ((rule.resourceNames ?? []).length > 0) return false;
  return any(rule.apiGroups, access.group) && coversResource(rule.resources, access.resource) && access.verbs.some((verb) => any(rule.verbs, verb));
}

/** Whether any rule of a role grants the access. */
export function roleGrants(role: RbacRole | undefined, access: Access): boolean {
  return (role?.rules ?? []).some((rule) => grants(rule, access));
}

/** Wildcards of a role: `all` when some rule grants every verb on every resource of every group. */
export function wildcardsOf(role: RbacRole | undefined): 'all' | 'verbs' | 'resources' | undefined {
  const rules = role?.rules ?? [];
  const star = (values: string[] | undefined): boolean => (values ?? []).includes('*');
  if (rules.some((rule) => star(rule.verbs) && star(rule.resources) && star(rule.apiGroups))) return 'all';
  if (rules.some((rule) => star(rule.verbs))) return 'verbs';
  if (rules.some((rule) => star(rule.resources))) return 'resources';
  return undefined;
}

/** The escalation verbs a role grants on any resource: escalate, bind, impersonate. */
export function escalationVerbsOf(role: RbacRole | undefined): string[] {
  const verbs = ['escalate', 'bind', 'impersonate'];
  return verbs.filter((verb) => (role?.rules ?? []).some((rule) => (rule.verbs ?? []).includes(verb)));
}

/** Bindings Kubernetes itself creates (`system:` names, label `kubernetes.io/bootstrapping=rbac-defaults`). */
export function builtIn(binding: RoleBinding): boolean {
  return (binding.metadata?.name ?? '').startsWith('system:') || binding.metadata?.labels?.['kubernetes.io/bootstrapping'] === 'rbac-defaults';
}

/** `ServiceAccount team/builder`, `User alice`, `Group ops`. */
export function describeSubject(subject: Subject): string {
  const namespace = subject.kind === 'ServiceAccount' && subject.namespace ? `${subject.namespace}/` : '';
  return `${subject.kind ?? 'Subject'} ${namespace}${subject.name ?? ''}`;
}

/** Whether a binding's subjects include the service account (by name, or its groups). */
export function bindsServiceAccount(binding: RoleBinding, namespace: string, name: string): boolean {
  return (binding.subjects ?? []).some((subject) => {
    if (subject.kind === 'ServiceAccount') return subject.name === name && (subject.namespace ?? binding.metadata?.namespace) === namespace;
    return subject.kind === 'Group' && (subject.name === 'system:serviceaccounts' || subject.name === `system:serviceaccounts:${namespace}`);
  });
}
