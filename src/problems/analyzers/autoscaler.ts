import { conditionDetail, conditionEvidence, namespaceOf, sameNamespace, whereOf, type Analyzer, type AnalysisContext } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import { conditionOf, type Condition, type KubeThing } from '../shapes.js';

interface AutoscalerShape extends KubeThing {
  spec?: { scaleTargetRef?: { kind?: string; name?: string }; maxReplicas?: number };
  status?: { currentReplicas?: number; conditions?: Condition[] };
}

const watchedTargets = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);

function targetMissing(autoscaler: AutoscalerShape, context: AnalysisContext, hint: string): FindingDraft | undefined {
  const target = autoscaler.spec?.scaleTargetRef;
  if (!target?.kind || !target.name || !watchedTargets.has(target.kind)) return undefined;
  if (context.objects.get(target.kind, namespaceOf(autoscaler), target.name)) return undefined;
  const named = `${target.kind}/${target.name}`;
  return {
    severity: 'warning',
    reason: 'TargetMissing',
    message: `The scale target ${named} does not exist`,
    evidence: [`spec.scaleTargetRef: ${named}`],
    hint,
  };
}

function metricsUnavailable(autoscaler: AutoscalerShape, hint: string): FindingDraft[] {
  const active = conditionOf(autoscaler.status?.conditions, 'ScalingActive');
  if (active?.status !== 'False') return [];
  return [
    {
      severity: 'warning',
      reason: 'MetricsUnavailable',
      message: `The autoscaler cannot scale: ${conditionDetail(active)}`,
      evidence: [conditionEvidence(active)],
      hint,
    },
  ];
}

function wantsMore(autoscaler: AutoscalerShape): Condition | undefined {
  const limited = conditionOf(autoscaler.status?.conditions, 'ScalingLimited');
  return limited?.status === 'True' && limited.reason === 'TooManyReplicas' ? limited : undefined;
}

function pinnedAtMax(autoscaler: AutoscalerShape, hint: string): FindingDraft[] {
  const limited = wantsMore(autoscaler);
  const max = autoscaler.spec?.maxReplicas ?? 0;
  const current = autoscaler.status?.currentReplicas ?? 0;
  if (!limited || max <= 0 || current < max) return [];
  const evidence = [`status.currentReplicas: ${current}`, `spec.maxReplicas: ${max}`, conditionEvidence(limited)];
  return [{ severity: 'warning', reason: 'PinnedAtMax', message: `Pinned at its maximum of ${max} replicas: it wants more`, evidence, hint }];
}

/** HorizontalPodAutoscalers: a missing target, metrics unavailable, pinned at the maximum. */
export const autoscalerAnalyzer: Analyzer = {
  name: 'horizontalpodautoscaler',
  kind: 'HorizontalPodAutoscaler',
  analyze: (object, context) => {
    const autoscaler = object as AutoscalerShape;
    const hint = `kubectl describe hpa ${whereOf(autoscaler)}`;
    const missing = targetMissing(autoscaler, context, hint);
    return { findings: missing ? [missing] : [...metricsUnavailable(autoscaler, hint), ...pinnedAtMax(autoscaler, hint)] };
  },
  dependents: { Deployment: sameNamespace('HorizontalPodAutoscaler'), StatefulSet: sameNamespace('HorizontalPodAutoscaler') },
};
