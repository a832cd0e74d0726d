import type { Finding } from '../document/document.js';
import type { Pod, Workload } from '../context/kube-shapes.js';
import type { ReportContext } from '../context/report-context.js';
import { refs, type ResourceRef } from '../document/resource-refs.js';
import { count, limitedTableOf, tableOf, type SectionContent } from '../document/report-sections.js';
import { describeObject, groupByWorkload } from '../context/workload-owner.js';
import { crashLoopsOf, healthyPod, pendingReasonOf, restartsOf } from './overview-pod-health.js';
import { readinessOf, unavailableReasonOf, workloadKinds, type WorkloadKind } from './overview-workload-health.js';

const collections: Record<WorkloadKind, ResourceRef> = {
  Deployment: refs.deployments,
  StatefulSet: refs.statefulSets,
  DaemonSet: refs.daemonSets,
  Job: refs.jobs,
};

interface Unhealthy {
  kind: WorkloadKind;
  workload: Workload;
}

async function readWorkloads(context: ReportContext): Promise<{ counts: Array<Array<string | number>>; unhealthy: Unhealthy[] }> {
  const counts: Array<Array<string | number>> = [];
  const unhealthy: Unhealthy[] = [];
  for (const kind of Object.keys(collections) as WorkloadKind[]) {
    const items = await context.list<Workload>(collections[kind]);
    const failing = items.filter((workload) => !workloadKinds[kind](workload));
    counts.push([kind, items.length, items.length - failing.length, failing.length]);
    unhealthy.push(...failing.map((workload) => ({ kind, workload })));
  }
  return { counts, unhealthy };
}

function unhealthyFinding({ kind, workload }: Unhealthy): Finding {
  const object = { kind, name: workload.metadata?.name ?? '', namespace: workload.metadata?.namespace };
  return {
    rule: 'overview.workload-unavailable',
    severity: 'high',
    title: `${describeObject(object)} is not healthy (${readinessOf(kind, workload)})`,
    object,
    why: unavailableReasonOf(workload),
    fix: 'Look at the pods of the workload (events, logs) and fix what keeps them from becoming ready.',
  };
}

function podFindings(pods: Pod[]): Finding[] {
  const crashing = groupByWorkload(pods.filter((pod) => crashLoopsOf(pod).length > 0).map((pod) => ({ pod, value: restartsOf(pod) })));
  const pending = groupByWorkload(pods.filter((pod) => pod.status?.phase === 'Pending').map((pod) => ({ pod, value: pendingReasonOf(pod) })));
  return [
    ...crashing.map(({ workload, pods: group, values }) => ({
      rule: 'overview.crash-looping',
      severity: 'high' as const,
      title: `${count(group.length, 'pod')} of ${describeObject(workload)} crash-looping (${values.reduce((sum, value) => sum + value, 0)} restarts)`,
      object: workload,
      why: 'Containers in CrashLoopBackOff exit again and again; the workload serves nothing or only part of it.',
      fix: 'Read the logs of the previous run (kubectl logs --previous) and fix the cause of the exit.',
    })),
    ...pending.map(({ workload, pods: group, values }) => ({
      rule: 'overview.pending',
      severity: 'medium' as const,
      title: `${count(group.length, 'pod')} of ${describeObject(workload)} pending`,
      object: workload,
      why: values[0] ?? 'pending',
      fix: 'Free or add the resources the scheduler asks for, or fix the constraints (selectors, taints, volumes) it names.',
    })),
  ];
}

function podTables(pods: Pod[]): SectionContent['tables'] {
  const crashing = pods.flatMap((pod) =>
    crashLoopsOf(pod).map((loop) => [pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', loop.container, loop.restarts, loop.lastReason]),
  );
  crashing.sort((left, right) => Number(right[3]) - Number(left[3]));
  const pending = pods
    .filter((pod) => pod.status?.phase === 'Pending')
    .map((pod) => [pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', pendingReasonOf(pod)]);
  return [
    ...limitedTableOf('Crash-looping pods', ['Namespace', 'Pod', 'Container', 'Restarts', 'Last termination'], crashing),
    ...limitedTableOf('Pending pods', ['Namespace', 'Pod', 'Why'], pending),
  ];
}

/** Workload counts and health: unavailable workloads, crash-looping pods with restarts, pending pods and why. */
export async function workloadsSection(context: ReportContext): Promise<SectionContent> {
  const pods = await context.list<Pod>(refs.pods);
  const { counts, unhealthy } = await readWorkloads(context);
  const healthyPods = pods.filter(healthyPod).length;
  counts.push(['Pod', pods.length, healthyPods, pods.length - healthyPods]);
  const notAvailable = unhealthy.map(({ kind, workload }) => [
    kind,
    workload.metadata?.namespace ?? '',
    workload.metadata?.name ?? '',
    readinessOf(kind, workload),
    unavailableReasonOf(workload),
  ]);
  const findings = [...unhealthy.map(unhealthyFinding), ...podFindings(pods)];
  return {
    summary: `${count(pods.length, 'pod')}, ${healthyPods} running and ready or completed; ${count(unhealthy.length, 'workload')} not healthy.`,
    tables: [
      ...tableOf('Workloads', ['Kind', 'Total', 'Healthy', 'Not healthy'], counts),
      ...limitedTableOf('Workloads not healthy', ['Kind', 'Namespace', 'Name', 'Ready', 'Why'], notAvailable),
      ...(podTables(pods) ?? []),
    ],
    findings,
  };
}
