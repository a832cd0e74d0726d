import { none, whereOf, type Analysis, type Analyzer } from '../analyzer.js';
import type { WorkloadShape } from '../shapes.js';

function analyzeStatefulSet(statefulSet: WorkloadShape): Analysis {
  const desired = statefulSet.spec?.replicas ?? 1;
  const ready = statefulSet.status?.readyReplicas ?? 0;
  if (desired === 0 || ready >= desired) return none;
  return {
    findings: [
      {
        severity: ready === 0 ? 'critical' : 'warning',
        reason: 'NotReady',
        message: `${desired - ready} of ${desired} replicas are not ready`,
        evidence: [`status.readyReplicas: ${ready}`, `spec.replicas: ${desired}`],
        hint: `kubectl rollout status statefulset/${whereOf(statefulSet)}`,
      },
    ],
  };
}

/** StatefulSets with replicas that are not ready. */
export const statefulSetAnalyzer: Analyzer = {
  name: 'statefulset',
  kind: 'StatefulSet',
  analyze: (object) => analyzeStatefulSet(object as WorkloadShape),
};
