import { inView, type CacheView } from '../cache/cache-manager.js';
import type { ResourceType } from '../discovery.js';
import type { LabelSelector } from '../cache/label-selector.js';
import { rowToItem, type ResourceItem, type TableRow } from '../cache/table.js';

/** Which objects a list or live list wants: the type, one namespace or all, and a label selector. */
export interface ListTarget {
  type: ResourceType;
  namespace?: string;
  selector?: LabelSelector;
}

/**
 * Which cached rows a list wants: one namespace (of an all-namespaces cache), a label selector, and only rows
 * of namespaces the cluster lets the caller list (`view.access`).
 */
function rowFilter(target: ListTarget, view: CacheView): (row: TableRow) => boolean {
  const { type, namespace, selector } = target;
  const scoped = type.namespaced && namespace;
  return (row) => {
    const rowNamespace = row.object?.metadata?.namespace;
    return (!scoped || rowNamespace === namespace) && inView(view.access, rowNamespace) && (!selector || selector.matches(row.object?.metadata?.labels));
  };
}

/** The list items of the cached rows the target wants, in the cache's order, with ages at `now`. */
export function listResources(view: CacheView, target: ListTarget, now = Date.now()): ResourceItem[] {
  const { cache } = view;
  const wanted = rowFilter(target, view);
  return cache
    .snapshot()
    .filter(wanted)
    .map((row) => rowToItem(cache.columns, row, now, target.type.kind));
}
