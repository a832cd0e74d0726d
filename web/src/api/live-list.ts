import type { ListResponse } from './list';
import type { SseEvent } from '@pilothouse/wire/wire-client';
import type { ResourceItem } from '@pilothouse/wire/types';

/** The rows of a live list (`GET /api/k8s/{resource}/watch`), keyed by namespace/name. */
export type LiveRows = Map<string, ResourceItem>;

const keyOf = (item: ResourceItem): string => `${item.namespace ?? ''}/${item.name}`;

/**
 * Applies one event of the live list: `snapshot` replaces every row, `added`/`modified` set one,
 * `deleted` removes one. Returns whether the rows changed (keep-alives and unknown events do not).
 */
export function applyLiveEvent(rows: LiveRows, event: SseEvent): boolean {
  if (event.event === 'snapshot') {
    const { items } = JSON.parse(event.data) as { items: ResourceItem[] };
    rows.clear();
    for (const item of items) rows.set(keyOf(item), item);
    return true;
  }
  if (event.event !== 'added' && event.event !== 'modified' && event.event !== 'deleted') return false;
  const { item } = JSON.parse(event.data) as { item: ResourceItem };
  if (event.event === 'deleted') return rows.delete(keyOf(item));
  rows.set(keyOf(item), item);
  return true;
}

/** The rows as the list answers them: by namespace, then name. */
export function liveListResponse(rows: LiveRows): ListResponse<ResourceItem> {
  const items = [...rows.values()].sort((left, right) => (left.namespace ?? '').localeCompare(right.namespace ?? '') || left.name.localeCompare(right.name));
  return { items, total: items.length };
}
