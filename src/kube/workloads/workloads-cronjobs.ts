import { randomBytes } from 'node:crypto';
import type { KubeIdentityClient } from '../clients.js';
import type { ChangeReport } from './workloads.js';

interface CronJob {
  metadata: { name: string; namespace: string; uid: string };
  spec: {
    suspend?: boolean;
    jobTemplate: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Record<string, unknown> };
  };
}

interface Target {
  namespace: string;
  name: string;
}

function cronJobPath(namespace: string, name: string): string {
  return `/apis/batch/v1/namespaces/${encodeURIComponent(namespace)}/cronjobs/${encodeURIComponent(name)}`;
}

function getCronJob(client: KubeIdentityClient, target: Target): Promise<CronJob> {
  return client.rest.json<CronJob>('GET', cronJobPath(target.namespace, target.name), { target: `cronjobs/${target.name}` });
}

/** A Job name for a manual run: `<cronjob>-manual-<random>`, within the 63-character limit. */
export function manualJobName(cronJob: string): string {
  return `${cronJob.slice(0, 63 - 14)}-manual-${randomBytes(3).toString('hex')}`;
}

/** `kubectl create job --from=cronjob/NAME`: a Job from the template, owned by the CronJob. */
export async function triggerCronJob(client: KubeIdentityClient, target: Target): Promise<{ name: string; namespace: string; jobName: string }> {
  const cronJob = await getCronJob(client, target);
  const jobName = manualJobName(target.name);
  const template = cronJob.spec.jobTemplate;
  const body = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName,
      namespace: target.namespace,
      labels: template.metadata?.labels,
      annotations: { ...template.metadata?.annotations, 'cronjob.kubernetes.io/instantiate': 'manual' },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: target.name, uid: cronJob.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: template.spec,
  };
  await client.rest.json('POST', `/apis/batch/v1/namespaces/${encodeURIComponent(target.namespace)}/jobs`, { body, target: `jobs/${jobName}` });
  return { name: target.name, namespace: target.namespace, jobName };
}

/** Suspends or resumes a CronJob's schedule. */
export async function suspendCronJob(client: KubeIdentityClient, target: Target, suspend: boolean): Promise<ChangeReport> {
  const cronJob = await getCronJob(client, target);
  await client.rest.json('PATCH', cronJobPath(target.namespace, target.name), {
    body: { spec: { suspend } },
    contentType: 'application/merge-patch+json',
    target: `cronjobs/${target.name}`,
  });
  return { name: target.name, namespace: target.namespace, before: { suspend: cronJob.spec.suspend ?? false }, after: { suspend } };
}
