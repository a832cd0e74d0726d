import { notFound, validation } from '../../errors.js';
import type { KubeIdentityClient } from '../clients.js';
import { getWorkload, patchWorkload, templateImages, type ChangeReport, type WorkloadObject } from './workloads.js';

const revisionAnnotation = 'deployment.kubernetes.io/revision';
const changeCauseAnnotation = 'kubernetes.io/change-cause';

/** One entry of `kubectl rollout history`. */
export interface RevisionEntry {
  revision: number;
  images: string[];
  createdAt: string | null;
  current: boolean;
  changeCause: string | null;
}

interface ReplicaSet extends WorkloadObject {
  metadata: WorkloadObject['metadata'] & { creationTimestamp?: string };
}

interface Target {
  namespace: string;
  name: string;
}

function revisionOf(object: { metadata: { annotations?: Record<string, string> } }): number {
  return Number(object.metadata.annotations?.[revisionAnnotation] ?? 0);
}

/** The ReplicaSets controlled by a deployment, by revision ascending. */
async function ownedReplicaSets(client: KubeIdentityClient, deployment: WorkloadObject): Promise<ReplicaSet[]> {
  const labels = Object.entries(deployment.spec.selector?.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`);
  const list = await client.rest.json<{ items: ReplicaSet[] }>(
    'GET',
    `/apis/apps/v1/namespaces/${encodeURIComponent(deployment.metadata.namespace)}/replicasets`,
    {
      query: { labelSelector: labels.join(',') || undefined },
      target: 'replicasets',
    },
  );
  return list.items
    .filter((replicaSet) => replicaSet.metadata.ownerReferences?.some((owner) => owner.controller && owner.uid === deployment.metadata.uid))
    .sort((left, right) => revisionOf(left) - revisionOf(right));
}

/** `kubectl rollout history`: one entry per ReplicaSet revision. */
export async function deploymentHistory(client: KubeIdentityClient, target: Target): Promise<RevisionEntry[]> {
  const deployment = await getWorkload(client, 'deployments', target.namespace, target.name);
  const current = revisionOf(deployment);
  return (await ownedReplicaSets(client, deployment)).map((replicaSet) => ({
    revision: revisionOf(replicaSet),
    images: templateImages(replicaSet.spec.template),
    createdAt: replicaSet.metadata.creationTimestamp ?? null,
    current: revisionOf(replicaSet) === current,
    changeCause: replicaSet.metadata.annotations?.[changeCauseAnnotation] ?? null,
  }));
}

function pickRevision(replicaSets: ReplicaSet[], current: number, revision: number, name: string): ReplicaSet {
  if (revision > 0) {
    const match = replicaSets.find((replicaSet) => revisionOf(replicaSet) === revision);
    if (!match) throw notFound(`revision ${revision} of deployment ${name} not found`, { revisions: replicaSets.map(revisionOf) });
    return match;
  }
  const previous = replicaSets.filter((replicaSet) => revisionOf(replicaSet) < current).at(-1);
  if (!previous) throw notFound(`deployment ${name} has no previous revision`, { revisions: replicaSets.map(revisionOf) });
  return previous;
}

/** The pod template of a ReplicaSet without the label the deployment controller adds. */
function templateOf(replicaSet: ReplicaSet): WorkloadObject['spec']['template'] {
  const labels = { ...replicaSet.spec.template.metadata?.labels };
  delete labels['pod-template-hash'];
  return { ...replicaSet.spec.template, metadata: { ...replicaSet.spec.template.metadata, labels } };
}

/** `kubectl rollout undo [--to-revision]`: revision 0 is the previous one; an unknown one is a 404. */
export async function rollbackDeployment(client: KubeIdentityClient, target: Target, revision: number): Promise<ChangeReport> {
  const deployment = await getWorkload(client, 'deployments', target.namespace, target.name);
  if (deployment.spec.paused) throw validation(`deployment ${target.name} is paused; resume it before rolling back`, { reason: 'paused' });
  const current = revisionOf(deployment);
  const chosen = pickRevision(await ownedReplicaSets(client, deployment), current, revision, target.name);
  const changeCause = chosen.metadata.annotations?.[changeCauseAnnotation];
  await client.rest.json('PATCH', `/apis/apps/v1/namespaces/${encodeURIComponent(target.namespace)}/deployments/${encodeURIComponent(target.name)}`, {
    body: [
      { op: 'test', path: '/metadata/uid', value: deployment.metadata.uid },
      { op: 'replace', path: '/spec/template', value: templateOf(chosen) },
      ...(changeCause ? [{ op: 'add', path: `/metadata/annotations/${changeCauseAnnotation.replace('/', '~1')}`, value: changeCause }] : []),
    ],
    contentType: 'application/json-patch+json',
    target: `deployments/${target.name}`,
  });
  return {
    name: target.name,
    namespace: target.namespace,
    before: { revision: current, images: templateImages(deployment.spec.template) },
    after: { revision: revisionOf(chosen), images: templateImages(chosen.spec.template) },
  };
}

/** `kubectl rollout pause|resume`. */
export async function setPaused(client: KubeIdentityClient, target: Target, paused: boolean): Promise<ChangeReport> {
  const current = await getWorkload(client, 'deployments', target.namespace, target.name);
  await patchWorkload(client, 'deployments', target, { spec: { paused } });
  return { name: target.name, namespace: target.namespace, before: { paused: current.spec.paused ?? false }, after: { paused } };
}
