import type { FindingObject } from '../document/document.js';
import type { Pod } from './kube-shapes.js';

/** The pod's controller (or first owner), if it has one with a kind and name. */
function ownerOf(pod: Pod): { kind: string; name: string } | undefined {
  const owners = pod.metadata?.ownerReferences ?? [];
  const owner = owners.find((reference) => reference.controller) ?? owners[0];
  return owner?.kind && owner.name ? { kind: owner.kind, name: owner.name } : undefined;
}

/**
 * The workload a pod belongs to: its controller (a ReplicaSet named `<deployment>-<pod-template-hash>`
 * counts as its Deployment, a Job named `<cronjob>-<n>` stays a Job), or the pod itself.
 */
export function workloadOf(pod: Pod): FindingObject {
  const namespace = pod.metadata?.namespace;
  const owner = ownerOf(pod);
  if (!owner) return { kind: 'Pod', name: pod.metadata?.name ?? '', namespace };
  const hash = pod.metadata?.labels?.['pod-template-hash'];
  if (owner.kind === 'ReplicaSet' && hash && owner.name.endsWith(`-${hash}`))
    return { kind: 'Deployment', name: owner.name.slice(0, -hash.length - 1), namespace };
  return { ...owner, namespace };
}

/** `Deployment shop/web`. */
export function describeObject(object: FindingObject): string {
  return `${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`;
}

/** A stable key of an object (grouping). */
export function objectKey(object: FindingObject): string {
  return `${object.kind}\u0000${object.namespace ?? ''}\u0000${object.name}`;
}

/** Groups pods by their workload, keeping the first pod's order. */
export function groupByWorkload<T>(items: Array<{ pod: Pod; value: T }>): Array<{ workload: FindingObject; pods: Pod[]; values: T[] }> {
  const groups = new Map<string, { workload: FindingObject; pods: Pod[]; values: T[] }>();
  for (const { pod, value } of items) {
    const workload = workloadOf(pod);
    const key = objectKey(workload);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { workload, pods: [], values: [] }));
    group.pods.push(pod);
    group.values.push(value);
  }
  return [...groups.values()];
}
