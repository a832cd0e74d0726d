import { conditionDetail, conditionEvidence, namespaceOf, nameOf, ownerOfKind, textOf, type Analysis, type Analyzer } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import { conditionOf, type WorkloadShape } from '../shapes.js';

function conditionFindings(deployment: WorkloadShape, hint: string): FindingDraft[] {
  const conditions = deployment.status?.conditions;
  const findings: FindingDraft[] = [];
  const progressing = conditionOf(conditions, 'Progressing');
  if (progressing?.status === 'False' && progressing.reason === 'ProgressDeadlineExceeded') {
    const message = `The rollout does not progress: ${conditionDetail(progressing)}`;
    findings.push({ severity: 'critical', reason: 'ProgressDeadlineExceeded', message, evidence: [conditionEvidence(progressing)], hint });
  }
  const failure = conditionOf(conditions, 'ReplicaFailure');
  if (failure?.status === 'True') {
    const message = `Pods cannot be created: ${conditionDetail(failure)}`;
    findings.push({ severity: 'critical', reason: textOf(failure.reason) || 'ReplicaFailure', message, evidence: [conditionEvidence(failure)], hint });
  }
  return findings;
}

function unavailableFindings(deployment: WorkloadShape, hint: string): FindingDraft[] {
  const desired = deployment.spec?.replicas ?? 1;
  const unavailable = deployment.status?.unavailableReplicas ?? 0;
  const available = deployment.status?.availableReplicas ?? 0;
  if (unavailable <= 0 || desired <= 0) return [];
  return [
    {
      severity: available === 0 ? 'critical' : 'warning',
      reason: 'UnavailableReplicas',
      message: `${unavailable} of ${desired} replicas are unavailable`,
      evidence: [`status.unavailableReplicas: ${unavailable}`, `status.availableReplicas: ${available}`, `spec.replicas: ${desired}`],
      hint,
    },
  ];
}

function analyzeDeployment(deployment: WorkloadShape): Analysis {
  const hint = `kubectl rollout status deployment/${nameOf(deployment)} -n ${namespaceOf(deployment)}`;
  return { findings: [...conditionFindings(deployment, hint), ...unavailableFindings(deployment, hint)] };
}

/** Deployments: unavailable replicas, a rollout past its progress deadline, replicas that cannot be created. */
export const deploymentAnalyzer: Analyzer = {
  name: 'deployment',
  kind: 'Deployment',
  analyze: (object) => analyzeDeployment(object as WorkloadShape),
  dependents: { ReplicaSet: ownerOfKind('Deployment') },
};
