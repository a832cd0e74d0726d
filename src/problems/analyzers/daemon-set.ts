import { whereOf, type Analysis, type Analyzer } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import type { WorkloadShape } from '../shapes.js';

function analyzeDaemonSet(daemonSet: WorkloadShape): Analysis {
  const { numberUnavailable = 0, numberMisscheduled = 0, desiredNumberScheduled = 0 } = daemonSet.status ?? {};
  const hint = `kubectl rollout status daemonset/${whereOf(daemonSet)}`;
  const findings: FindingDraft[] = [];
  if (numberUnavailable > 0) {
    const evidence = [`status.numberUnavailable: ${numberUnavailable}`, `status.desiredNumberScheduled: ${desiredNumberScheduled}`];
    findings.push({
      severity: 'warning',
      reason: 'UnavailablePods',
      message: `${numberUnavailable} of ${desiredNumberScheduled} pods are unavailable`,
      evidence,
      hint,
    });
  }
  if (numberMisscheduled > 0) {
    const message = `${numberMisscheduled} pods run on nodes they should not run on`;
    findings.push({ severity: 'warning', reason: 'Misscheduled', message, evidence: [`status.numberMisscheduled: ${numberMisscheduled}`], hint });
  }
  return { findings };
}

/** DaemonSets with unavailable or misscheduled pods. */
export const daemonSetAnalyzer: Analyzer = {
  name: 'daemonset',
  kind: 'DaemonSet',
  analyze: (object) => analyzeDaemonSet(object as WorkloadShape),
};
