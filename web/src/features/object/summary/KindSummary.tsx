import type { ReactNode } from 'react';
import { PodSummary } from './PodSummary';
import { NodeSummary, ServiceSummary } from './ServiceNodeSummary';
import { JobSummary, WorkloadSummary } from './WorkloadSummary';

/** What matters about an object of this kind (Pod, workloads, Service, Node, Job, CronJob); nothing for other kinds. */
export function KindSummary({ object }: { object: { kind?: string } }): ReactNode {
  const json = object as Record<string, unknown>;
  switch (object.kind) {
    case 'Pod':
      return <PodSummary pod={json} />;
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
      return <WorkloadSummary object={json} kind={object.kind} />;
    case 'Job':
    case 'CronJob':
      return <JobSummary object={json} kind={object.kind} />;
    case 'Service':
      return <ServiceSummary object={json} />;
    case 'Node':
      return <NodeSummary object={json} />;
    default:
      return null;
  }
}
