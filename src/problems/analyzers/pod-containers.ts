import { textOf, whereOf } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import type { ContainerStatusShape, PodShape } from '../shapes.js';

const pullReasons = new Set(['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName']);

function lastTermination(status: ContainerStatusShape): string {
  const last = status.lastState?.terminated;
  return last ? ` (last termination: ${last.reason ?? 'unknown'}, exit code ${textOf(last.exitCode)})` : '';
}

function waitingEvidence(status: ContainerStatusShape, field: string): string[] {
  const waiting = status.state?.waiting;
  const evidence = [`${field}.state.waiting.reason: ${textOf(waiting?.reason)}`];
  if (waiting?.message) evidence.push(`${field}.state.waiting.message: ${waiting.message}`);
  const last = status.lastState?.terminated;
  if (last) evidence.push(`${field}.lastState.terminated: reason ${textOf(last.reason)}, exitCode ${textOf(last.exitCode)}`);
  return evidence;
}

function waitingMessage(reason: string, container: string, status: ContainerStatusShape): string | undefined {
  const detail = status.state?.waiting?.message;
  if (reason === 'CrashLoopBackOff') return `Container ${container} keeps crashing${lastTermination(status)}`;
  if (pullReasons.has(reason)) return `Container ${container} cannot pull its image: ${detail ?? reason}`;
  if (reason === 'CreateContainerConfigError') return `Container ${container} cannot start: ${detail ?? 'its configuration is invalid'}`;
  return undefined;
}

function waitingFinding(pod: PodShape, status: ContainerStatusShape, prefix: string): FindingDraft | undefined {
  const reason = textOf(status.state?.waiting?.reason);
  const container = textOf(status.name);
  const message = waitingMessage(reason, container, status);
  if (!message) return undefined;
  const hint = reason === 'CrashLoopBackOff' ? `kubectl logs ${whereOf(pod)} -c ${container} --previous` : `kubectl describe pod ${whereOf(pod)}`;
  return { severity: 'critical', reason, part: container, message, evidence: waitingEvidence(status, `${prefix}[${container}]`), hint };
}

function oomFinding(pod: PodShape, status: ContainerStatusShape, prefix: string): FindingDraft | undefined {
  const container = textOf(status.name);
  const field = status.state?.terminated?.reason === 'OOMKilled' ? 'state' : status.lastState?.terminated?.reason === 'OOMKilled' ? 'lastState' : undefined;
  if (!field) return undefined;
  return {
    severity: 'critical',
    reason: 'OOMKilled',
    part: container,
    message: `Container ${container} was killed for using more memory than its limit`,
    evidence: [`${prefix}[${container}].${field}.terminated.reason: OOMKilled`],
    hint: `kubectl describe pod ${whereOf(pod)}`,
  };
}

function restartFinding(pod: PodShape, status: ContainerStatusShape, prefix: string, threshold: number): FindingDraft | undefined {
  const restarts = status.restartCount ?? 0;
  if (restarts <= threshold) return undefined;
  const container = textOf(status.name);
  return {
    severity: 'warning',
    reason: 'Restarts',
    part: container,
    message: `Container ${container} restarted ${restarts} times${lastTermination(status)}`,
    evidence: [`${prefix}[${container}].restartCount: ${restarts}`],
    hint: `kubectl logs ${whereOf(pod)} -c ${container} --previous`,
  };
}

/** The container findings of a pod: crash loops, image pulls, config errors, OOM kills, restarts above the threshold. */
export function containerFindings(pod: PodShape, restartThreshold: number): FindingDraft[] {
  const findings: FindingDraft[] = [];
  const groups: Array<[string, ContainerStatusShape[] | undefined]> = [
    ['status.initContainerStatuses', pod.status?.initContainerStatuses],
    ['status.containerStatuses', pod.status?.containerStatuses],
  ];
  for (const [prefix, statuses] of groups) {
    for (const status of statuses ?? []) {
      const waiting = waitingFinding(pod, status, prefix);
      const found = [waiting, oomFinding(pod, status, prefix), waiting ? undefined : restartFinding(pod, status, prefix, restartThreshold)];
      findings.push(...found.filter((finding): finding is FindingDraft => finding !== undefined));
    }
  }
  return findings;
}
