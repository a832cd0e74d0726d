import { ageOf, conditionDetail, conditionEvidence, nameOf, numberSetting, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import type { Condition, KubeThing } from '../shapes.js';

interface NodeShape extends KubeThing {
  spec?: { unschedulable?: boolean; taints?: Array<{ key?: string; timeAdded?: string }> };
  status?: { conditions?: Condition[] };
}

const pressures = new Set(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable']);
const hour = 3_600_000;

function cordoned(node: NodeShape, context: AnalysisContext, hint: string): Analysis {
  if (!node.spec?.unschedulable) return { findings: [] };
  const taint = node.spec.taints?.find((entry) => entry.key === 'node.kubernetes.io/unschedulable');
  const limit = numberSetting(context, 'cordonedHours', 24) * hour;
  const age = ageOf(taint?.timeAdded, context.now);
  if (age === undefined) return { findings: [] };
  if (age < limit) return { findings: [], recheckAt: context.now + (limit - age) };
  const evidence = ['spec.unschedulable: true', `taint node.kubernetes.io/unschedulable timeAdded: ${String(taint?.timeAdded)}`];
  return { findings: [{ severity: 'info', reason: 'CordonedForLong', message: `Cordoned for ${Math.floor(age / hour)} hours`, evidence, hint }] };
}

function conditionFindings(conditions: Condition[], hint: string): FindingDraft[] {
  const findings: FindingDraft[] = [];
  const ready = conditions.find((condition) => condition.type === 'Ready');
  if (ready && ready.status !== 'True') {
    findings.push({
      severity: 'critical',
      reason: 'NotReady',
      message: `The node is not ready: ${conditionDetail(ready)}`,
      evidence: [conditionEvidence(ready)],
      hint,
    });
  }
  for (const condition of conditions) {
    const type = condition.type ?? '';
    if (!pressures.has(type) || condition.status !== 'True') continue;
    const severity = type === 'NetworkUnavailable' ? 'critical' : 'warning';
    findings.push({ severity, reason: type, message: `${type}: ${conditionDetail(condition)}`, evidence: [conditionEvidence(condition)], hint });
  }
  return findings;
}

function analyzeNode(node: NodeShape, context: AnalysisContext): Analysis {
  const hint = `kubectl describe node ${nameOf(node)}`;
  const cordon = cordoned(node, context, hint);
  return { findings: [...conditionFindings(node.status?.conditions ?? [], hint), ...cordon.findings], recheckAt: cordon.recheckAt };
}

/** Nodes not ready, under memory, disk or PID pressure, without network, or cordoned for long. */
export const nodeAnalyzer: Analyzer = {
  name: 'node',
  kind: 'Node',
  defaults: { cordonedHours: 24 },
  analyze: (object, context) => analyzeNode(object as NodeShape, context),
};
