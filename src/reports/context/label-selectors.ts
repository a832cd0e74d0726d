/** A structured label selector (NetworkPolicy podSelector/namespaceSelector). */
export interface SelectorSpec {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key?: string; operator?: string; values?: string[] }>;
}

type Expression = NonNullable<SelectorSpec['matchExpressions']>[number];

function matchesExpression(expression: Expression, labels: Record<string, string>): boolean {
  const value = labels[expression.key ?? ''];
  const values = expression.values ?? [];
  switch (expression.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default:
      return false;
  }
}

/** Whether a selector selects the labels (an empty selector selects everything, as the API defines). */
export function selects(selector: SelectorSpec | undefined, labels: Record<string, string> | undefined): boolean {
  const actual = labels ?? {};
  const byLabel = Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => actual[key] === value);
  return byLabel && (selector?.matchExpressions ?? []).every((expression) => matchesExpression(expression, actual));
}

/** Whether a selector is empty (selects everything). */
export function isEmptySelector(selector: SelectorSpec | undefined): boolean {
  return Object.keys(selector?.matchLabels ?? {}).length === 0 && (selector?.matchExpressions ?? []).length === 0;
}
