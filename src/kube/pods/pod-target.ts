import { notFound, validation } from '../../errors.js';
import type { KubeIdentityClient } from '../clients.js';

interface ContainerSpec {
  name: string;
}

/** The parts of a Pod the pod operations read. */
export interface PodObject {
  metadata: {
    name: string;
    namespace: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: OwnerReference[];
    deletionTimestamp?: string;
  };
  spec: {
    nodeName?: string;
    containers: ContainerSpec[];
    initContainers?: ContainerSpec[];
    ephemeralContainers?: ContainerSpec[];
    volumes?: { name: string; emptyDir?: unknown }[];
  };
  status?: { phase?: string };
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
}

/** The API path of a pod. */
export function podPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;
}

/** Reads a pod with the caller's identity (404 NOT_FOUND when absent, also for a wrong namespace). */
export function getPod(client: KubeIdentityClient, namespace: string, name: string): Promise<PodObject> {
  return client.rest.json<PodObject>('GET', podPath(namespace, name), { target: `pods/${name}` });
}

/**
 * The container to act on: the one asked for (404 when the pod has no such container), or the
 * only one. A pod with several containers and no choice is a 400 listing the names.
 */
export function resolveContainer(pod: PodObject, requested: string | undefined): string {
  const names = pod.spec.containers.map((container) => container.name);
  const all = [
    ...names,
    ...(pod.spec.initContainers ?? []).map((container) => container.name),
    ...(pod.spec.ephemeralContainers ?? []).map((container) => container.name),
  ];
  if (requested) {
    if (!all.includes(requested)) throw notFound(`container "${requested}" not found in pod ${pod.metadata.name}`, { containers: all });
    return requested;
  }
  if (names.length === 1 && names[0]) return names[0];
  throw validation(`pod ${pod.metadata.name} has several containers; choose one with "container"`, { fields: { container: 'required' }, containers: names });
}
