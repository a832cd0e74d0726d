/** A resource collection the reports read: API group, version, plural and scope. */
export interface ResourceRef {
  /** '' for the core group. */
  group: string;
  version: string;
  resource: string;
  namespaced: boolean;
}

const core = (resource: string, namespaced = true): ResourceRef => ({ group: '', version: 'v1', resource, namespaced });
const apps = (resource: string): ResourceRef => ({ group: 'apps', version: 'v1', resource, namespaced: true });
const rbac = (resource: string, namespaced: boolean): ResourceRef => ({ group: 'rbac.authorization.k8s.io', version: 'v1', resource, namespaced });

/** Every collection the generators read (their policy decisions are taken up front). */
export const refs = {
  namespaces: core('namespaces', false),
  nodes: core('nodes', false),
  pods: core('pods'),
  events: core('events'),
  serviceAccounts: core('serviceaccounts'),
  deployments: apps('deployments'),
  statefulSets: apps('statefulsets'),
  daemonSets: apps('daemonsets'),
  jobs: { group: 'batch', version: 'v1', resource: 'jobs', namespaced: true },
  roles: rbac('roles', true),
  roleBindings: rbac('rolebindings', true),
  clusterRoles: rbac('clusterroles', false),
  clusterRoleBindings: rbac('clusterrolebindings', false),
  networkPolicies: { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies', namespaced: true },
  vulnerabilityReports: { group: 'aquasecurity.github.io', version: 'v1alpha1', resource: 'vulnerabilityreports', namespaced: true },
  nodeMetrics: { group: 'metrics.k8s.io', version: 'v1beta1', resource: 'nodes', namespaced: false },
  podMetrics: { group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods', namespaced: true },
} satisfies Record<string, ResourceRef>;

/** The API path of a collection, in one namespace or across all. */
export function collectionPathOf(ref: ResourceRef, namespace?: string): string {
  const base = ref.group ? `/apis/${ref.group}/${ref.version}` : `/api/${ref.version}`;
  return ref.namespaced && namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${ref.resource}` : `${base}/${ref.resource}`;
}

/** `deployments.apps`: how a report names a collection. */
export function displayName(ref: ResourceRef): string {
  return ref.group ? `${ref.resource}.${ref.group}` : ref.resource;
}
