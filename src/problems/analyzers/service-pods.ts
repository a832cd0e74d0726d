import type { ObjectReader } from '../object-store.js';
import { conditionOf, type PodShape } from '../shapes.js';

/** The pods of `namespace` a Service's selector matches (none for a Service without a selector). */
export function selectedPods(objects: ObjectReader, namespace: string, selector: Record<string, string> | undefined): PodShape[] {
  if (!selector || Object.keys(selector).length === 0) return [];
  return (objects.list('Pod', namespace) as PodShape[]).filter((pod) => {
    const labels = pod.metadata?.labels ?? {};
    return Object.entries(selector).every(([key, value]) => labels[key] === value);
  });
}

/** Whether a pod serves traffic (running, Ready, not being deleted). */
export function isReadyPod(pod: PodShape): boolean {
  return pod.status?.phase === 'Running' && !pod.metadata?.deletionTimestamp && conditionOf(pod.status.conditions, 'Ready')?.status === 'True';
}

export interface ServiceShape {
  metadata?: { name?: string; namespace?: string };
  spec?: { type?: string; selector?: Record<string, string>; ports?: Array<{ name?: string; port?: number; targetPort?: number | string }> };
}
