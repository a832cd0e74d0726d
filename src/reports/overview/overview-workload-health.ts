import type { Workload } from '../context/kube-shapes.js';

/** The workload kinds counted, and when one counts as healthy. */
export const workloadKinds = {
  Deployment: (workload: Workload): boolean => (workload.status?.availableReplicas ?? 0) >= (workload.spec?.replicas ?? 1),
  StatefulSet: (workload: Workload): boolean => (workload.status?.readyReplicas ?? 0) >= (workload.spec?.replicas ?? 1),
  DaemonSet: (workload: Workload): boolean => (workload.status?.numberReady ?? 0) >= (workload.status?.desiredNumberScheduled ?? 0),
  Job: (workload: Workload): boolean => (workload.status?.failed ?? 0) === 0 || (workload.status?.succeeded ?? 0) > 0,
} as const;

export type WorkloadKind = keyof typeof workloadKinds;

type Status = NonNullable<Workload['status']>;

const readiness: Record<WorkloadKind, (status: Status, desired: number) => string> = {
  Deployment: (status, desired) => `${status.availableReplicas ?? 0}/${desired}`,
  StatefulSet: (status, desired) => `${status.readyReplicas ?? 0}/${desired}`,
  DaemonSet: (status) => `${status.numberReady ?? 0}/${status.desiredNumberScheduled ?? 0}`,
  Job: (status) => `${status.succeeded ?? 0} succeeded, ${status.failed ?? 0} failed`,
};

/** `2/3` ready of desired, per kind. */
export function readinessOf(kind: WorkloadKind, workload: Workload): string {
  return readiness[kind](workload.status ?? {}, workload.spec?.replicas ?? 1);
}

/** Why a Deployment is not available, in the words of its conditions. */
export function unavailableReasonOf(workload: Workload): string {
  const conditions = workload.status?.conditions ?? [];
  const failing = conditions.find((condition) => condition.status === 'False' && condition.message) ?? conditions.find((condition) => condition.message);
  return failing ? [failing.reason, failing.message].filter(Boolean).join(': ') : 'replicas not available yet';
}
