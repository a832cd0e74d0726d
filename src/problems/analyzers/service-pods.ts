import type { ObjectRef } from '../finding.js';
import type { ObjectReader } from '../object-store.js';
import { conditionOf, type KubeThing, type PodShape } from '../shapes.js';

/** Whether a Service's selector (non-empty) matches the labels. */
export function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

/** The pods of `namespace` a Service's selector matches (none for a Service without a selector). */
export function selectedPods(objects: ObjectReader, namespace: string, selector: Record<string, string> | undefined): PodShape[] {
  if (!selector || Object.keys(selector).length === 0) return [];
  return (objects.list('Pod', namespace) as PodShape[]).filter((pod) => selects(selector, pod.metadata?.labels));
}

/**
 * The Services of a changed pod's namespace whose selector matches it: only their endpoints can have changed (the
 * engine asks with the old and the new version of the pod, so a relabelled pod reaches both Services).
 */
export function servicesSelecting(changed: KubeThing, objects: ObjectReader): ObjectRef[] {
  const namespace = changed.metadata?.namespace ?? '';
  return (objects.list('Service', namespace) as ServiceShape[])
    .filter((service) => selects(service.spec?.selector, changed.metadata?.labels))
    .map((service) => ({ kind: 'Service', namespace, name: service.metadata?.name ?? '' }));
}

/** Whether a pod serves traffic (running, Ready, not being deleted). */
export function isReadyPod(pod: PodShape): boolean {
  return pod.status?.phase === 'Running' && !pod.metadata?.deletionTimestamp && conditionOf(pod.status.conditions, 'Ready')?.status === 'True';
}

export interface ServiceShape {
  metadata?: { name?: string; namespace?: string };
  spec?: { type?: string; selector?: Record<string, string>; ports?: Array<{ name?: string; port?: number; targetPort?: number | string }> };
}
