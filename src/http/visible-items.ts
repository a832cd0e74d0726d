import type { AppContext } from './types.js';

/**
 * Leaves out of a list across all namespaces the items of namespaces the caller may not see
 * (set by the one policy on the request, `context.state.hiddenNamespaces`).
 */
export function visibleItems<T extends { namespace?: string | null }>(context: AppContext, items: T[]): T[] {
  const hidden = context.state.hiddenNamespaces;
  return hidden ? items.filter((item) => item.namespace === undefined || item.namespace === null || !hidden.has(item.namespace)) : items;
}
