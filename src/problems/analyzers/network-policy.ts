import { sameNamespace, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import { isEmptySelector, selects, type SelectorSpec } from '../../reports/context/label-selectors.js';
import type { KubeThing } from '../shapes.js';

interface PolicyShape extends KubeThing {
  spec?: { podSelector?: SelectorSpec };
}

function analyzePolicy(policy: PolicyShape, context: AnalysisContext): Analysis {
  const namespace = policy.metadata?.namespace ?? '';
  const selector = policy.spec?.podSelector;
  const pods = context.objects.list('Pod', namespace);
  if (isEmptySelector(selector) ? pods.length > 0 : pods.some((pod) => selects(selector, pod.metadata?.labels))) return { findings: [] };
  return {
    findings: [
      {
        severity: 'info',
        reason: 'SelectsNoPod',
        message: 'The policy selects no pod: it has no effect',
        evidence: [`spec.podSelector: ${JSON.stringify(selector ?? {})}`, 'matching pods: 0'],
        hint: `kubectl describe networkpolicy ${policy.metadata?.name ?? ''} -n ${namespace}`,
      },
    ],
  };
}

/** NetworkPolicies that select no pod. */
export const networkPolicyAnalyzer: Analyzer = {
  name: 'networkpolicy',
  kind: 'NetworkPolicy',
  analyze: (object, context) => analyzePolicy(object as PolicyShape, context),
  dependents: { Pod: sameNamespace('NetworkPolicy') },
};
