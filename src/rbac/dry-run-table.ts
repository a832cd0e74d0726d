import type { RequestAttributes } from './request-attributes.js';

/**
 * Resources (`group/plural`, '' for the core group) whose writes honour `dryRun=All`: they are
 * stored through the API server's generic registry, which validates, admits and then skips the
 * etcd write. test/e2e/tools/attacks/dry-run.test.ts creates each one with `dryRun=All` against the real
 * API server and shows that nothing was persisted; an entry without that proof fails the test.
 *
 * Left out on purpose (a "dry run" of them acts or discloses all the same, or nobody proved
 * otherwise): `serviceaccounts/token` (mints a real token), `tokenreviews`,
 * `subjectaccessreviews`, `localsubjectaccessreviews` (answer without storing), bindings,
 * evictions, `certificatesigningrequests` and their approval, nodes, aggregated and custom
 * resources (another server decides whether it honours dry run), and every subresource not listed
 * in `dryRunSubresources`.
 */
export const dryRunResources: ReadonlySet<string> = new Set([
  '/configmaps',
  '/endpoints',
  '/limitranges',
  '/namespaces',
  '/persistentvolumeclaims',
  '/pods',
  '/podtemplates',
  '/replicationcontrollers',
  '/resourcequotas',
  '/secrets',
  '/serviceaccounts',
  '/services',
  'apps/controllerrevisions',
  'apps/daemonsets',
  'apps/deployments',
  'apps/replicasets',
  'apps/statefulsets',
  'autoscaling/horizontalpodautoscalers',
  'batch/cronjobs',
  'batch/jobs',
  'coordination.k8s.io/leases',
  'discovery.k8s.io/endpointslices',
  'networking.k8s.io/ingressclasses',
  'networking.k8s.io/ingresses',
  'networking.k8s.io/networkpolicies',
  'policy/poddisruptionbudgets',
  'rbac.authorization.k8s.io/clusterrolebindings',
  'rbac.authorization.k8s.io/clusterroles',
  'rbac.authorization.k8s.io/rolebindings',
  'rbac.authorization.k8s.io/roles',
  'scheduling.k8s.io/priorityclasses',
  'storage.k8s.io/storageclasses',
]);

/**
 * Subresources (`group/plural/subresource`) whose writes honour `dryRun=All` (an update of the
 * stored object through the same registry), each proved by the same test with a patch that
 * changes nothing afterwards.
 */
export const dryRunSubresources: ReadonlySet<string> = new Set([
  '/pods/status',
  '/replicationcontrollers/scale',
  'apps/deployments/scale',
  'apps/deployments/status',
  'apps/replicasets/scale',
  'apps/statefulsets/scale',
]);

/** The verbs a dry run can change nothing with: writes and deletes of stored objects. */
const dryRunVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * Whether a request is a server-side dry run that persists nothing: `dryRun=All` on a write of a
 * resource (or subresource) in the table above. Any other "dry run" is the write it looks like.
 */
export function honoursDryRun(attributes: RequestAttributes): boolean {
  if (!attributes.dryRun || !attributes.isResourceRequest || !dryRunVerbs.has(attributes.verb)) return false;
  const resource = `${attributes.apiGroup}/${attributes.resource}`;
  if (attributes.subresource === '') return dryRunResources.has(resource);
  return dryRunSubresources.has(`${resource}/${attributes.subresource}`);
}
