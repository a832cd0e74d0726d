import type { KubeIdentityClient } from '../clients.js';
import { AppError } from '../../errors.js';
import { podPath, type PodObject } from '../pods/pod-target.js';

export interface DrainOptions {
  ignoreDaemonSets: boolean;
  deleteLocalData: boolean;
  force: boolean;
  gracePeriodSeconds?: number;
  timeoutSeconds: number;
}

export interface PodReference {
  namespace: string;
  name: string;
}

/** What `kubectl drain` would do with the node's pods. */
export interface DrainPlan {
  evict: PodReference[];
  skipped: (PodReference & { reason: string })[];
  refused: (PodReference & { reason: string })[];
}

const mirrorAnnotation = 'kubernetes.io/config.mirror';

function reference(pod: PodObject): PodReference {
  return { namespace: pod.metadata.namespace, name: pod.metadata.name };
}

/** Why a pod is skipped (`skip:`) or refused (`refuse:`), or undefined to evict it — kubectl drain's filters. */
function classify(pod: PodObject, options: DrainOptions): string | undefined {
  if (pod.metadata.annotations?.[mirrorAnnotation]) return 'skip:mirror pod';
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return undefined;
  return ownerVerdict(pod, options) ?? localDataVerdict(pod, options);
}

function ownerVerdict(pod: PodObject, options: DrainOptions): string | undefined {
  const controller = pod.metadata.ownerReferences?.find((owner) => owner.controller);
  if (controller?.kind === 'DaemonSet') return options.ignoreDaemonSets ? 'skip:DaemonSet-managed pod' : 'refuse:DaemonSet-managed pod (use ignoreDaemonSets)';
  if (!controller && !options.force) return 'refuse:not managed by a controller (use force)';
  return undefined;
}

function localDataVerdict(pod: PodObject, options: DrainOptions): string | undefined {
  const hasLocalData = pod.spec.volumes?.some((volume) => volume.emptyDir !== undefined) ?? false;
  return hasLocalData && !options.deleteLocalData ? 'refuse:has local data in emptyDir volumes (use deleteLocalData)' : undefined;
}

/** Lists the node's pods and sorts them into evict / skip / refuse. */
export async function planDrain(client: KubeIdentityClient, node: string, options: DrainOptions): Promise<DrainPlan> {
  const list = await client.rest.json<{ items: PodObject[] }>('GET', '/api/v1/pods', { query: { fieldSelector: `spec.nodeName=${node}` }, target: 'pods' });
  const plan: DrainPlan = { evict: [], skipped: [], refused: [] };
  for (const pod of list.items) {
    const verdict = classify(pod, options);
    if (!verdict) plan.evict.push(reference(pod));
    else if (verdict.startsWith('skip:')) plan.skipped.push({ ...reference(pod), reason: verdict.slice(5) });
    else plan.refused.push({ ...reference(pod), reason: verdict.slice(7) });
  }
  return plan;
}

/** One eviction through the Eviction API (PodDisruptionBudgets apply); 429 means a PDB blocks it now. */
export async function evictPod(client: KubeIdentityClient, pod: PodReference, gracePeriodSeconds?: number): Promise<'evicted' | 'blocked' | 'gone'> {
  try {
    await client.rest.json('POST', `${podPath(pod.namespace, pod.name)}/eviction`, {
      body: {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: pod.name, namespace: pod.namespace },
        ...(gracePeriodSeconds !== undefined ? { deleteOptions: { gracePeriodSeconds } } : {}),
      },
      target: `pods/${pod.name}`,
    });
    return 'evicted';
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return 'gone';
    if (error instanceof AppError && error.details.status === 429) return 'blocked';
    throw error;
  }
}

/** Whether the pod no longer exists. */
export async function podGone(client: KubeIdentityClient, pod: PodReference): Promise<boolean> {
  try {
    await client.rest.json('GET', podPath(pod.namespace, pod.name), { target: `pods/${pod.name}` });
    return false;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return true;
    throw error;
  }
}
