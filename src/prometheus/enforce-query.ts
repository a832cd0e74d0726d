import { parser } from '@prometheus-io/lezer-promql';
import { AppError, forbidden, validation } from '../errors.js';
import { enforcedMatcher, viewIncludes } from './enforce-matcher.js';
import { defaultNamespaceLabel, type MetricsView } from './metrics-view.js';
import { unquotePromql } from './promql-strings.js';

type Tree = ReturnType<typeof parser.parse>;
type SyntaxNode = Tree['topNode'];

/** The longest query accepted (characters). */
export const maxQueryLength = 20_000;

interface Insertion {
  at: number;
  text: string;
}

/** The parsed query, refused with VALIDATION_ERROR when the grammar finds an error or a string is left open. */
function parseQuery(query: string): Tree {
  if (query.trim() === '') throw validation('the query is empty', { field: 'query' });
  if (query.length > maxQueryLength) throw validation(`the query is longer than ${maxQueryLength} characters`, { field: 'query', max: maxQueryLength });
  const tree = parser.parse(query);
  let problem: { position: number; text: string } | undefined;
  tree.iterate({
    enter: (node) => {
      if (problem) return false;
      if (node.type.isError) problem = { position: node.from, text: 'a syntax error' };
      else if (node.name === 'StringLiteral' && unquotePromql(query.slice(node.from, node.to)) === undefined)
        problem = { position: node.from, text: 'an unterminated or malformed string' };
      return undefined;
    },
  });
  if (problem) throw validation(`the query cannot be parsed: ${problem.text} at position ${problem.position}`, { field: 'query', position: problem.position });
  return tree;
}

/** Every vector selector of the tree (a matrix selector and a subquery hold one; functions and operators hold them). */
function selectorsOf(tree: Tree): SyntaxNode[] {
  const selectors: SyntaxNode[] = [];
  tree.iterate({
    enter: (node) => {
      if (node.name !== 'VectorSelector') return undefined;
      selectors.push(node.node);
      return false;
    },
  });
  return selectors;
}

/** The label a matcher node is about, and its value when it is an equality matcher (`label="value"`). */
function matcherOf(query: string, matcher: SyntaxNode): { label: string | undefined; equals: string | undefined } {
  const text = (node: SyntaxNode | null): string => (node ? query.slice(node.from, node.to) : '');
  const nameNode = matcher.getChild('LabelName') ?? matcher.getChild('QuotedLabelName');
  const label = nameNode?.name === 'QuotedLabelName' ? unquotePromql(text(nameNode)) : text(nameNode);
  const operator = matcher.getChild('MatchOp')?.firstChild?.name;
  const literals = matcher.getChildren('StringLiteral');
  const value = literals.length > 0 ? unquotePromql(text(literals[literals.length - 1] ?? null)) : undefined;
  return { label, equals: operator === 'EqlSingle' ? value : undefined };
}

/** Refuses a selector whose own `namespace="X"` names a namespace outside the caller's view (it could only answer empty). */
function checkNamedNamespaces(query: string, matchers: SyntaxNode | null, view: MetricsView, label: string): void {
  if (!matchers) return;
  for (const matcher of [...matchers.getChildren('UnquotedLabelMatcher'), ...matchers.getChildren('QuotedLabelMatcher')]) {
    const { label: name, equals } = matcherOf(query, matcher);
    if (name !== label || equals === undefined || viewIncludes(view, equals)) continue;
    const what = equals === '' ? 'series without a namespace (nodes, the control plane: you may not list nodes)' : `the namespace "${equals}"`;
    throw forbidden(`the query reads ${what}, which you may not read metrics of (metrics follow where you may list pods)`, {
      reason: 'namespace_not_visible',
      resource: 'pods',
      verb: 'list',
      namespace: equals,
    });
  }
}

/** Where the matcher goes in one selector: first inside its braces, or new braces after its metric name. */
function insertionFor(selector: SyntaxNode, matcher: string): Insertion {
  const matchers = selector.getChild('LabelMatchers');
  if (matchers) return { at: matchers.from + 1, text: `${matcher},` };
  return { at: selector.to, text: `{${matcher}}` };
}

/** Proves the rewritten query holds the matcher first in every selector, as many selectors as before. */
function verify(rewritten: string, matcher: string, count: number): void {
  const selectors = selectorsOf(parseQuery(rewritten));
  const held = selectors.every((selector) => {
    const first = selector.getChild('LabelMatchers')?.firstChild;
    return first !== null && first !== undefined && rewritten.slice(first.from, first.to) === matcher;
  });
  if (!held || selectors.length !== count)
    throw new AppError('VALIDATION_ERROR', 'the query cannot be restricted to the namespaces you may read', { field: 'query' });
}

/**
 * The query as the caller may run it, the way prom-label-proxy enforces a label: every vector and matrix selector
 * (inside functions, aggregations, binary operators, subqueries, `@` and `offset`) gets the caller's namespace
 * matcher, added to (never replacing) the caller's own matchers, so whatever else the query says, it reads only
 * series of the caller's namespaces (and series without a namespace only when they may list nodes). A selector
 * that names a namespace outside the view is refused (FORBIDDEN); a query that cannot be parsed is refused for
 * everyone (VALIDATION_ERROR). An unrestricted view gets the query back as written (parsed all the same).
 */
export function enforceQuery(query: string, view: MetricsView, label: string = defaultNamespaceLabel): string {
  const tree = parseQuery(query);
  const matcher = enforcedMatcher(view, label);
  if (matcher === undefined) return query;
  const selectors = selectorsOf(tree);
  for (const selector of selectors) checkNamedNamespaces(query, selector.getChild('LabelMatchers'), view, label);
  const insertions = selectors.map((selector) => insertionFor(selector, matcher)).sort((left, right) => right.at - left.at);
  let rewritten = query;
  for (const insertion of insertions) rewritten = rewritten.slice(0, insertion.at) + insertion.text + rewritten.slice(insertion.at);
  verify(rewritten, matcher, selectors.length);
  return rewritten;
}
