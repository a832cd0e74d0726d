import { conditionEvidence, controllerRef, eventEvidence, none, textOf, whereOf, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import { refOf } from '../object-store.js';
import { conditionOf, type Condition, type WorkloadShape } from '../shapes.js';

function missingReplicas(replicaSet: WorkloadShape): boolean {
  const desired = replicaSet.spec?.replicas ?? 0;
  return desired > 0 && (replicaSet.status?.replicas ?? 0) < desired;
}

function failingCondition(replicaSet: WorkloadShape): Condition | undefined {
  const failure = conditionOf(replicaSet.status?.conditions, 'ReplicaFailure');
  return failure?.status === 'True' ? failure : undefined;
}

function analyzeReplicaSet(replicaSet: WorkloadShape, context: AnalysisContext): Analysis {
  const failing = failingCondition(replicaSet);
  const failedEvents = context.objects.eventsOf(refOf(replicaSet)).filter((event) => event.reason === 'FailedCreate');
  const lastEvent = failedEvents[failedEvents.length - 1];
  if ((!failing && !lastEvent) || !missingReplicas(replicaSet)) return none;
  const message = textOf(failing?.message) || textOf(lastEvent?.message);
  const evidence = [...(failing ? [conditionEvidence(failing)] : []), ...failedEvents.slice(-3).map(eventEvidence)];
  return {
    owner: controllerRef(replicaSet),
    findings: [
      {
        severity: 'critical',
        reason: 'FailedCreate',
        message: `Pods cannot be created: ${message}`,
        evidence,
        hint: `kubectl describe replicaset/${whereOf(replicaSet)}`,
      },
    ],
  };
}

/** ReplicaSets whose pods cannot be created (FailedCreate: a quota, Pod Security admission, a webhook). */
export const replicaSetAnalyzer: Analyzer = {
  name: 'replicaset',
  kind: 'ReplicaSet',
  analyze: (object, context) => analyzeReplicaSet(object as WorkloadShape, context),
};
