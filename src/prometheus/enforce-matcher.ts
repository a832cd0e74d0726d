import { forbidden } from '../errors.js';
import type { MetricsView } from './metrics-view.js';
import { escapeRegex, quotePromql } from './promql-strings.js';

/** The caller's view as one label matcher every selector of their query gets, or undefined when nothing is cut. */
export function enforcedMatcher(view: MetricsView, label: string): string | undefined {
  if (view.unrestricted) return undefined;
  if (view.namespaces === 'all') return view.nodes ? undefined : `${label}!=""`;
  if (view.namespaces.length === 0) {
    if (view.nodes) return `${label}=""`;
    throw forbidden('you may read the metrics of no namespace on this cluster (metrics follow where you may list pods)', {
      reason: 'no_namespaces',
      resource: 'pods',
      verb: 'list',
    });
  }
  // A regular expression that matches the empty string also matches series without the label (nodes, control plane).
  const alternatives = [...view.namespaces].sort().map(escapeRegex);
  if (view.nodes) alternatives.push('');
  return `${label}=~${quotePromql(alternatives.join('|'))}`;
}

/** Whether the caller may read series whose namespace label is `namespace` ('' = no namespace label). */
export function viewIncludes(view: MetricsView, namespace: string): boolean {
  if (view.unrestricted) return true;
  if (namespace === '') return view.nodes;
  return view.namespaces === 'all' || view.namespaces.includes(namespace);
}
