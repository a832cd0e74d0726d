import type { Pod } from '../context/kube-shapes.js';
import type { ReportContext } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { count, limitedTableOf, type SectionContent } from '../document/report-sections.js';
import { bindingFindings, type BindingView } from './rbac-bindings.js';
import { builtIn, describeSubject, type RbacRole, type RoleBinding } from './rbac-rules.js';
import { unusedTokenFindings, type ServiceAccount } from './rbac-tokens.js';

const keyOf = (namespace: string | undefined, name: string | undefined): string => `${namespace ?? ''}/${name ?? ''}`;

/** For a one-namespace report: cluster bindings count when they bind a service account of that namespace. */
function concernsNamespace(binding: RoleBinding, namespace: string | undefined): boolean {
  if (!namespace) return true;
  return (binding.subjects ?? []).some((subject) => subject.kind === 'ServiceAccount' && subject.namespace === namespace);
}

async function bindingViews(context: ReportContext): Promise<{ views: BindingView[]; bindings: RoleBinding[] }> {
  const [clusterRoles, roles, clusterBindings, bindings] = await Promise.all([
    context.list<RbacRole>(refs.clusterRoles),
    context.list<RbacRole>(refs.roles),
    context.list<RoleBinding>(refs.clusterRoleBindings),
    context.list<RoleBinding>(refs.roleBindings),
  ]);
  const clusterRoleByName = new Map(clusterRoles.map((role) => [role.metadata?.name ?? '', role]));
  const roleByName = new Map(roles.map((role) => [keyOf(role.metadata?.namespace, role.metadata?.name), role]));
  const roleOf = (binding: RoleBinding): RbacRole | undefined =>
    binding.roleRef?.kind === 'ClusterRole'
      ? clusterRoleByName.get(binding.roleRef.name ?? '')
      : roleByName.get(keyOf(binding.metadata?.namespace, binding.roleRef?.name));
  const scopedClusterBindings = clusterBindings.filter((binding) => concernsNamespace(binding, context.input.namespace));
  const views: BindingView[] = [
    ...scopedClusterBindings.map((binding) => ({ binding, kind: 'ClusterRoleBinding' as const, role: roleOf(binding) })),
    ...bindings.map((binding) => ({ binding, kind: 'RoleBinding' as const, role: roleOf(binding) })),
  ];
  return { views, bindings: [...scopedClusterBindings, ...bindings] };
}

/**
 * RBAC review: cluster-admin and wildcard grants, Secret reads in every namespace, escalate/bind/
 * impersonate, pod creation or exec in kube-system, bindings of default service accounts, and
 * automounted tokens where unused.
 */
export async function rbacReview(context: ReportContext): Promise<SectionContent> {
  const { views, bindings } = await bindingViews(context);
  const [pods, accounts] = await Promise.all([context.list<Pod>(refs.pods), context.list<ServiceAccount>(refs.serviceAccounts)]);
  const findings = [...views.flatMap(bindingFindings), ...unusedTokenFindings(pods, accounts, bindings)];
  const reviewed = views.filter((view) => !builtIn(view.binding));
  const rows = reviewed.map((view) => [
    view.kind,
    view.binding.metadata?.namespace ?? '',
    view.binding.metadata?.name ?? '',
    `${view.binding.roleRef?.kind ?? ''}/${view.binding.roleRef?.name ?? ''}`,
    (view.binding.subjects ?? []).map(describeSubject).join(', '),
  ]);
  return {
    summary: `${count(reviewed.length, 'binding')} reviewed (${count(views.length - reviewed.length, 'built-in binding')} of Kubernetes itself left aside); ${count(findings.length, 'finding')}.`,
    tables: limitedTableOf('Bindings reviewed', ['Kind', 'Namespace', 'Name', 'Role', 'Subjects'], rows),
    findings,
  };
}
