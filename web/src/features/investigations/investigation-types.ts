import type { components } from '@pilothouse/wire/types';

/** An Investigation object as `GET /api/investigations` shows it. */
export type Investigation = components['schemas']['Investigation'];

export const investigationsPath = '/api/investigations';

/** The Kubernetes kind of a resource (plural) an Investigate button may name; undefined for others. */
const kinds: Record<string, string> = {
  pods: 'Pod',
  deployments: 'Deployment',
  statefulsets: 'StatefulSet',
  daemonsets: 'DaemonSet',
  replicasets: 'ReplicaSet',
  jobs: 'Job',
  cronjobs: 'CronJob',
  services: 'Service',
  ingresses: 'Ingress',
  persistentvolumeclaims: 'PersistentVolumeClaim',
  configmaps: 'ConfigMap',
  nodes: 'Node',
  namespaces: 'Namespace',
};

export function kindOf(resource: string): string | undefined {
  return kinds[resource];
}

/** `Deployment shop/web`, or '' without a subject. */
export function subjectText(investigation: Investigation): string {
  const subject = investigation.spec.subject;
  if (!subject) return '';
  return `${subject.kind} ${subject.namespace ? `${subject.namespace}/` : ''}${subject.name}`;
}
