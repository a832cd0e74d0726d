import { numberSetting, whereOf, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import { parseQuantity } from '../../kube/metrics/metrics-quantity.js';
import type { KubeThing } from '../shapes.js';

interface QuotaShape extends KubeThing {
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

/** The used share of a limit in whole percent, or undefined when either is unreadable. */
function shareOf(usedText: string, limitText: string): number | undefined {
  const limit = parseQuantity(limitText);
  const used = parseQuantity(usedText);
  if (!Number.isFinite(limit) || !Number.isFinite(used) || limit <= 0) return undefined;
  return Math.round((used / limit) * 100);
}

function resourceFinding(quota: QuotaShape, resource: string, limitText: string, threshold: number): FindingDraft | undefined {
  const usedText = quota.status?.used?.[resource] ?? '0';
  const share = shareOf(usedText, limitText);
  if (share === undefined || share < threshold) return undefined;
  const full = share >= 100;
  return {
    severity: full ? 'critical' : 'warning',
    reason: full ? 'QuotaExhausted' : 'QuotaNearlyFull',
    part: resource,
    message: `${resource}: ${usedText} of ${limitText} used (${share} %)`,
    evidence: [`status.used.${resource}: ${usedText}`, `status.hard.${resource}: ${limitText}`],
    hint: `kubectl describe resourcequota ${whereOf(quota)}`,
  };
}

function analyzeQuota(quota: QuotaShape, context: AnalysisContext): Analysis {
  const threshold = numberSetting(context, 'percent', 90);
  const findings = Object.entries(quota.status?.hard ?? {}).map(([resource, limit]) => resourceFinding(quota, resource, limit, threshold));
  return { findings: findings.filter((finding): finding is FindingDraft => finding !== undefined) };
}

/** ResourceQuotas with a resource used above 90 % (`percent`) of its hard limit. */
export const resourceQuotaAnalyzer: Analyzer = {
  name: 'resourcequota',
  kind: 'ResourceQuota',
  defaults: { percent: 90 },
  analyze: (object, context) => analyzeQuota(object as QuotaShape, context),
};
