import { namespaceOf, sameNamespace, textOf, whereOf, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import { selects, type SelectorSpec } from '../../reports/context/label-selectors.js';
import type { KubeThing } from '../shapes.js';

interface BudgetShape extends KubeThing {
  spec?: { selector?: SelectorSpec };
  status?: { disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number };
}

function analyzeBudget(budget: BudgetShape, context: AnalysisContext): Analysis {
  const hint = `kubectl describe pdb ${whereOf(budget)}`;
  const selector = budget.spec?.selector;
  const matched = context.objects.list('Pod', namespaceOf(budget)).filter((pod) => selects(selector, pod.metadata?.labels));
  if (matched.length === 0) {
    const evidence = [`spec.selector: ${JSON.stringify(selector ?? {})}`, 'matching pods: 0'];
    return { findings: [{ severity: 'warning', reason: 'NoPodsMatched', message: 'The budget matches no pod', evidence, hint }] };
  }
  const status = budget.status;
  if (status?.disruptionsAllowed !== 0) return { findings: [] };
  const healthy = `${textOf(status.currentHealthy)} healthy, ${textOf(status.desiredHealthy)} required`;
  const message = `No disruption is allowed (${healthy}): it blocks every drain of these pods' nodes`;
  const evidence = [
    'status.disruptionsAllowed: 0',
    `status.currentHealthy: ${textOf(status.currentHealthy)}`,
    `status.desiredHealthy: ${textOf(status.desiredHealthy)}`,
  ];
  return { findings: [{ severity: 'warning', reason: 'NoDisruptionAllowed', message, evidence, hint }] };
}

/** PodDisruptionBudgets that match no pod or allow no disruption. */
export const disruptionBudgetAnalyzer: Analyzer = {
  name: 'poddisruptionbudget',
  kind: 'PodDisruptionBudget',
  analyze: (object, context) => analyzeBudget(object as BudgetShape, context),
  dependents: { Pod: sameNamespace('PodDisruptionBudget') },
};
