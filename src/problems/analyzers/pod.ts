import {
  ageOf,
  conditionDetail,
  conditionEvidence,
  controllerRef,
  eventEvidence,
  none,
  numberSetting,
  textOf,
  whereOf,
  type Analysis,
  type AnalysisContext,
  type Analyzer,
} from '../analyzer.js';
import type { FindingDraft, ObjectRef } from '../finding.js';
import { refOf, type ObjectReader } from '../object-store.js';
import { conditionOf, type KubeThing, type PodShape } from '../shapes.js';
import { containerFindings } from './pod-containers.js';

const minute = 60_000;

/** A pod's owner for people: a ReplicaSet's Deployment, a Job's CronJob, else its controller. */
const parentKinds: Record<string, string> = { ReplicaSet: 'Deployment', Job: 'CronJob' };

export function podOwner(pod: KubeThing, objects: ObjectReader): ObjectRef | undefined {
  const controller = controllerRef(pod);
  if (!controller) return undefined;
  const parentKind = parentKinds[controller.kind];
  const middle = parentKind ? objects.get(controller.kind, controller.namespace, controller.name) : undefined;
  const parent = middle ? controllerRef(middle) : undefined;
  return parent?.kind === parentKind ? parent : controller;
}

const target = whereOf;

function pendingFindings(pod: PodShape, context: AnalysisContext): Analysis {
  const scheduled = conditionOf(pod.status?.conditions, 'PodScheduled');
  const hint = `kubectl describe pod ${target(pod)}`;
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
    const message = `Pod cannot be scheduled: ${conditionDetail(scheduled, 'no node fits')}`;
    return { findings: [{ severity: 'critical', reason: 'Unschedulable', message, evidence: [conditionEvidence(scheduled)], hint }] };
  }
  const pendingMs = numberSetting(context, 'pendingMinutes', 5) * minute;
  const created = textOf(pod.metadata?.creationTimestamp);
  const age = ageOf(created, context.now) ?? 0;
  if (age < pendingMs) return { findings: [], recheckAt: context.now + (pendingMs - age) };
  const evidence = ['status.phase: Pending', `metadata.creationTimestamp: ${created}`];
  return { findings: [{ severity: 'warning', reason: 'Pending', message: `Pod has been pending for ${Math.round(age / minute)} minutes`, evidence, hint }] };
}

function terminatingFindings(pod: PodShape, context: AnalysisContext): Analysis {
  const deletion = pod.metadata?.deletionTimestamp;
  if (!deletion) return none;
  const stuckMs = numberSetting(context, 'terminatingMinutes', 5) * minute;
  const age = ageOf(deletion, context.now) ?? 0;
  if (age < stuckMs) return { findings: [], recheckAt: context.now + (stuckMs - age) };
  const finding: FindingDraft = {
    severity: 'warning',
    reason: 'StuckTerminating',
    message: `Pod has been terminating for ${Math.round(age / minute)} minutes`,
    evidence: [`metadata.deletionTimestamp: ${deletion}`],
    hint: `kubectl describe pod ${target(pod)}`,
  };
  return { findings: [finding] };
}

function evictedFindings(pod: PodShape): FindingDraft[] {
  if (pod.status?.phase !== 'Failed' || pod.status.reason !== 'Evicted') return [];
  return [
    {
      severity: 'warning',
      reason: 'Evicted',
      message: `Pod was evicted: ${pod.status.message ?? ''}`.trim(),
      evidence: [`status.phase: Failed`, `status.reason: Evicted`, ...(pod.status.message ? [`status.message: ${pod.status.message}`] : [])],
      hint: `kubectl describe pod ${target(pod)}`,
    },
  ];
}

function readinessFindings(pod: PodShape, context: AnalysisContext): FindingDraft[] {
  if (pod.status?.phase !== 'Running' || conditionOf(pod.status.conditions, 'Ready')?.status !== 'False') return [];
  const unhealthy = context.objects.eventsOf(refOf(pod)).filter((event) => event.reason === 'Unhealthy');
  const last = unhealthy[unhealthy.length - 1];
  if (!last) return [];
  return [
    {
      severity: 'warning',
      reason: 'ReadinessProbeFailed',
      message: `Pod is not ready: ${textOf(last.message) || 'its readiness probe fails'}`,
      evidence: ['status.conditions[Ready]: False', ...unhealthy.slice(-3).map(eventEvidence)],
      hint: `kubectl describe pod ${target(pod)}`,
    },
  ];
}

function analyzePod(pod: PodShape, context: AnalysisContext): Analysis {
  const owner = podOwner(pod, context.objects);
  const terminating = terminatingFindings(pod, context);
  if (pod.metadata?.deletionTimestamp) return { ...terminating, owner };
  if (pod.status?.phase === 'Succeeded') return { findings: [], owner };
  const pending = pod.status?.phase === 'Pending' && !pod.spec?.nodeName ? pendingFindings(pod, context) : none;
  const findings = [
    ...pending.findings,
    ...evictedFindings(pod),
    ...containerFindings(pod, numberSetting(context, 'restartThreshold', 5)),
    ...readinessFindings(pod, context),
  ];
  return { findings, owner, recheckAt: pending.recheckAt };
}

/** Pods: unschedulable or pending for long, crash loops, image pulls, config errors, OOM kills, readiness, evictions, stuck deletion, restarts. */
export const podAnalyzer: Analyzer = {
  name: 'pod',
  kind: 'Pod',
  defaults: { pendingMinutes: 5, terminatingMinutes: 5, restartThreshold: 5 },
  analyze: (object, context) => analyzePod(object as PodShape, context),
};
