import type { Pod } from '../context/kube-shapes.js';

/** A container in CrashLoopBackOff, with its restarts and the reason of its last termination. */
export interface CrashLoop {
  container: string;
  restarts: number;
  lastReason: string;
}

/** Containers of a pod waiting in CrashLoopBackOff. */
export function crashLoopsOf(pod: Pod): CrashLoop[] {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  return statuses
    .filter((status) => status.state?.waiting?.reason === 'CrashLoopBackOff')
    .map((status) => ({
      container: status.name ?? '',
      restarts: status.restartCount ?? 0,
      lastReason: status.lastState?.terminated?.reason ?? '',
    }));
}

/** Restarts of all containers of a pod. */
export function restartsOf(pod: Pod): number {
  return (pod.status?.containerStatuses ?? []).reduce((total, status) => total + (status.restartCount ?? 0), 0);
}

/**
 * Why a pod is Pending: the scheduler's message (PodScheduled=False, e.g. `0/3 nodes are
 * available: 3 Insufficient cpu.`), else a waiting container's reason, else the pod's reason.
 */
export function pendingReasonOf(pod: Pod): string {
  const scheduled = pod.status?.conditions?.find((condition) => condition.type === 'PodScheduled');
  if (scheduled?.status === 'False') return [scheduled.reason, scheduled.message].filter(Boolean).join(': ');
  const waiting = (pod.status?.containerStatuses ?? []).map((status) => status.state?.waiting).find((state) => state?.reason);
  if (waiting) return [waiting.reason, waiting.message].filter(Boolean).join(': ');
  return pod.status?.reason ?? 'scheduled, containers starting';
}

/** Whether a pod runs or ran to completion (Running with every container ready, or Succeeded). */
export function healthyPod(pod: Pod): boolean {
  if (pod.status?.phase === 'Succeeded') return true;
  const ready = pod.status?.conditions?.find((condition) => condition.type === 'Ready')?.status === 'True';
  return pod.status?.phase === 'Running' && ready;
}
