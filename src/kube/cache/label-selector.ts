import { validation } from '../../errors.js';

/** One requirement of a Kubernetes label selector. */
type Requirement =
  { key: string; op: 'exists' | 'notexists' } | { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: '=' | '!='; value: string };

/** A parsed selector; `matches` is what the API server's `labelSelector` would select. */
export interface LabelSelector {
  matches(labels: Record<string, string> | undefined): boolean;
}

const name = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const value = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

function fail(reason: string): never {
  throw validation(`labelSelector: ${reason}`, { fields: { labelSelector: reason } });
}

function checkKey(key: string): string {
  if (!name.test(key)) fail(`"${key}" is not a valid label key`);
  return key;
}

function checkValue(text: string): string {
  if (!value.test(text)) fail(`"${text}" is not a valid label value`);
  return text;
}

/** Splits on commas outside parentheses (`env in (a,b),tier=web`). */
function terms(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of selector) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  return parts.filter(Boolean);
}

function parseTerm(term: string): Requirement {
  const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
  if (set) return { key: checkKey(set[1]!), op: set[2] as 'in' | 'notin', values: set[3]!.split(',').map((item) => checkValue(item.trim())) };
  const compare = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
  if (compare) return { key: checkKey(compare[1]!), op: compare[2] === '!=' ? '!=' : '=', value: checkValue(compare[3]!) };
  if (term.startsWith('!')) return { key: checkKey(term.slice(1).trim()), op: 'notexists' };
  return { key: checkKey(term), op: 'exists' };
}

function holds(requirement: Requirement, labels: Record<string, string>): boolean {
  const present = Object.hasOwn(labels, requirement.key);
  const actual = labels[requirement.key];
  switch (requirement.op) {
    case 'exists':
      return present;
    case 'notexists':
      return !present;
    case '=':
      return actual === requirement.value;
    case '!=':
      return actual !== requirement.value;
    case 'in':
      return present && requirement.values.includes(actual!);
    case 'notin':
      return !present || !requirement.values.includes(actual!);
  }
}

/** Parses a selector in the Kubernetes grammar (`a=b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`); 400 naming `labelSelector` when malformed. */
export function parseLabelSelector(selector: string): LabelSelector {
  if (selector.length > 1024) fail('longer than 1024 characters');
  const requirements = terms(selector).map(parseTerm);
  return { matches: (labels) => requirements.every((requirement) => holds(requirement, labels ?? {})) };
}
