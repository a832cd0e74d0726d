import type { ListResponse } from './list';
import type { SseEvent } from '@pilothouse/wire/wire-client';
import type { ResourceItem } from '@pilothouse/wire/types';

/** The rows of a live list (`GET /api/k8s/{resource}/watch`), keyed by namespace/name. */
export type LiveRows = Map<string, ResourceItem>;

/** A live list row's key: namespace/name. */
export const liveListKey = (item: ResourceItem): string => `${item.namespace ?? ''}/${item.name}`;

/** The live lists' order: by namespace, then name. */
export const liveListOrder = (left: ResourceItem, right: ResourceItem): number =>
  (left.namespace ?? '').localeCompare(right.namespace ?? '') || left.name.localeCompare(right.name);

/**
 * Applies one event of a live stream: `snapshot` replaces every item (its other fields go to `onSnapshot`),
 * `added`/`modified` set one, `deleted` removes one. Returns whether the items changed (keep-alives and unknown events do not).
 */
export function applyKeyedEvent<T>(
  rows: Map<string, T>,
  event: SseEvent,
  keyOf: (item: T) => string,
  onSnapshot?: (fields: Record<string, unknown>) => void,
): boolean {
  if (event.event === 'snapshot') {
    const { items, ...fields } = JSON.parse(event.data) as { items: T[] };
    rows.clear();
    for (const item of items) rows.set(keyOf(item), item);
    onSnapshot?.(fields);
    return true;
  }
  if (event.event !== 'added' && event.event !== 'modified' && event.event !== 'deleted') return false;
  const { item } = JSON.parse(event.data) as { item: T };
  if (event.event === 'deleted') return rows.delete(keyOf(item));
  rows.set(keyOf(item), item);
  return true;
}

/** Applies one event of a live list (`GET /api/k8s/{resource}/watch`), keyed by namespace/name. */
export function applyLiveEvent(rows: LiveRows, event: SseEvent): boolean {
  return applyKeyedEvent(rows, event, liveListKey);
}

/** The rows as the list answers them: by namespace, then name. */
export function liveListResponse(rows: LiveRows): ListResponse<ResourceItem> {
  const items = [...rows.values()].sort(liveListOrder);
  return { items, total: items.length };
}
