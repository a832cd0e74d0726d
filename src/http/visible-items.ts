import type { AppContext } from './types.js';

/**
 * Leaves out of a list across all namespaces the items of namespaces the caller may not see
 * (set by the one policy on the request, `context.state.namespaceFilter`).
 */
export function visibleItems<T extends { namespace?: string | null }>(context: AppContext, items: T[]): T[] {
  const visible = context.state.namespaceFilter;
  return visible ? items.filter((item) => visible(item.namespace ?? undefined)) : items;
}
