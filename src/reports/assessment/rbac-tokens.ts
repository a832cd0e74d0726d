import type { Finding } from '../document/document.js';
import type { Metadata, Pod } from '../context/kube-shapes.js';
import type { RawObject } from '../context/requester-reader.js';
import { count } from '../document/report-sections.js';
import { describeObject, groupByWorkload } from '../context/workload-owner.js';
import { bindsServiceAccount, builtIn, type RoleBinding } from './rbac-rules.js';

export interface ServiceAccount extends RawObject {
  metadata?: Metadata;
  automountServiceAccountToken?: boolean;
}

/** Whether the pod gets an API token mounted: the pod's setting wins over its service account's; the default is yes. */
function automounts(pod: Pod, accounts: Map<string, ServiceAccount>): boolean {
  if (pod.spec?.automountServiceAccountToken !== undefined) return pod.spec.automountServiceAccountToken;
  const account = accounts.get(`${pod.metadata?.namespace ?? ''}/${pod.spec?.serviceAccountName ?? 'default'}`);
  return account?.automountServiceAccountToken !== false;
}

/**
 * Automounted tokens where unused. The heuristic (said in each finding): a pod does not use the
 * API when its service account is bound to no Role or ClusterRole (bindings Kubernetes creates
 * itself aside): its token then grants only what every authenticated identity may do, so
 * mounting it only gives an attacker in the container a credential.
 */
export function unusedTokenFindings(pods: Pod[], accounts: ServiceAccount[], bindings: RoleBinding[]): Finding[] {
  const byName = new Map(accounts.map((account) => [`${account.metadata?.namespace ?? ''}/${account.metadata?.name ?? ''}`, account]));
  const granting = bindings.filter((binding) => !builtIn(binding));
  const bound = new Map<string, boolean>();
  const isBound = (namespace: string, name: string): boolean => {
    const key = `${namespace}/${name}`;
    if (!bound.has(key))
      bound.set(
        key,
        granting.some((binding) => bindsServiceAccount(binding, namespace, name)),
      );
    return bound.get(key) ?? false;
  };
  const unused = pods.filter((pod) => automounts(pod, byName) && !isBound(pod.metadata?.namespace ?? '', pod.spec?.serviceAccountName ?? 'default'));
  return groupByWorkload(unused.map((pod) => ({ pod, value: pod.spec?.serviceAccountName ?? 'default' }))).map(({ workload, pods: group, values }) => ({
    rule: 'rbac.automounted-token-unused',
    severity: 'low',
    title: `${describeObject(workload)} mounts the API token of service account ${values[0] ?? 'default'} it does not seem to use (${count(group.length, 'pod')})`,
    object: workload,
    why: 'Heuristic: the service account is bound to no Role or ClusterRole, so the pod is taken not to call the API; a mounted token is then only a credential for an attacker in the container (CIS 5.1.6).',
    fix: 'Set automountServiceAccountToken: false on the pod template (or the service account); mount a projected token only where the API is used.',
  }));
}
