import type { KubeIdentityClient } from '../clients.js';
import type { OwnerReference } from '../pods/pod-target.js';

/** The apps/v1 kinds the workload actions touch. */
export type WorkloadKind = 'deployments' | 'statefulsets' | 'daemonsets';

export const restartedAtAnnotation = 'kubectl.kubernetes.io/restartedAt';

/** The fields of an apps/v1 workload the actions read. */
export interface WorkloadObject {
  metadata: { name: string; namespace: string; uid: string; annotations?: Record<string, string>; ownerReferences?: OwnerReference[] };
  spec: {
    replicas?: number;
    paused?: boolean;
    selector?: { matchLabels?: Record<string, string> };
    template: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec?: { containers?: { name: string; image?: string }[] };
    };
  };
}

/** What an action changed: the before and after values of the fields it touched. */
export interface ChangeReport {
  name: string;
  namespace: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** The API path of an apps/v1 workload. */
export function workloadPath(kind: WorkloadKind, namespace: string, name: string): string {
  return `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/${kind}/${encodeURIComponent(name)}`;
}

/** Reads a workload with the caller's identity (404 when absent). */
export function getWorkload(client: KubeIdentityClient, kind: WorkloadKind, namespace: string, name: string): Promise<WorkloadObject> {
  return client.rest.json<WorkloadObject>('GET', workloadPath(kind, namespace, name), { target: `${kind}/${name}` });
}

/** JSON merge patch of a workload. */
export function patchWorkload(
  client: KubeIdentityClient,
  kind: WorkloadKind,
  target: { namespace: string; name: string },
  patch: unknown,
): Promise<WorkloadObject> {
  return client.rest.json<WorkloadObject>('PATCH', workloadPath(kind, target.namespace, target.name), {
    body: patch,
    contentType: 'application/merge-patch+json',
    target: `${kind}/${target.name}`,
  });
}

/** Sets the replica count (the scale subresource, as `kubectl scale` does). */
export async function scaleWorkload(
  client: KubeIdentityClient,
  kind: 'deployments' | 'statefulsets',
  target: { namespace: string; name: string },
  replicas: number,
): Promise<ChangeReport> {
  const path = `${workloadPath(kind, target.namespace, target.name)}/scale`;
  const current = await client.rest.json<{ spec?: { replicas?: number } }>('GET', path, { target: `${kind}/${target.name}` });
  await client.rest.json('PATCH', path, { body: { spec: { replicas } }, contentType: 'application/merge-patch+json', target: `${kind}/${target.name}` });
  return { name: target.name, namespace: target.namespace, before: { replicas: current.spec?.replicas ?? 0 }, after: { replicas } };
}

/** Rolling restart via the pod template's restartedAt annotation (`kubectl rollout restart`). */
export async function restartWorkload(
  client: KubeIdentityClient,
  kind: WorkloadKind,
  target: { namespace: string; name: string },
  now: Date,
): Promise<ChangeReport> {
  const current = await getWorkload(client, kind, target.namespace, target.name);
  const restartedAt = now.toISOString();
  await patchWorkload(client, kind, target, { spec: { template: { metadata: { annotations: { [restartedAtAnnotation]: restartedAt } } } } });
  return {
    name: target.name,
    namespace: target.namespace,
    before: { restartedAt: current.spec.template.metadata?.annotations?.[restartedAtAnnotation] ?? null },
    after: { restartedAt },
  };
}

/** The images of a pod template, in container order. */
export function templateImages(template: WorkloadObject['spec']['template']): string[] {
  return (template.spec?.containers ?? []).map((container) => container.image ?? '');
}
