import type { ApiClient } from '../api/client';
import type { ListResponse } from '../api/list';
import { liveListOrder, liveListKey } from '../api/live-list';
import type { ResourceItem } from '@pilothouse/wire/types';
import { useLiveStream, type LiveShape } from './use-live-stream';

const shape: LiveShape<ResourceItem> = { keyOf: liveListKey, order: liveListOrder };

/** A live list's state: the last rows (kept while the stream reconnects), its error, and when it last changed. */
export interface LiveList {
  data: ListResponse<ResourceItem> | undefined;
  error: unknown;
  /** True until the first snapshot for the current inputs arrives. */
  loading: boolean;
  /** True while the stream (re)connects. */
  refreshing: boolean;
  updatedAt: number | undefined;
  reload: () => void;
}

/**
 * A list kept live by the server (`GET /api/k8s/{resource}/watch`): a snapshot, then added/modified/
 * deleted rows applied in place, so selection and scroll stay; reconnects after a dropped stream and
 * keeps the last rows on screen meanwhile (the error shows until the stream is back); an unknown resource type
 * or a refused query is not asked again.
 */
export function useLiveList(client: ApiClient, resource: string, namespace: string | undefined, labelSelector = ''): LiveList {
  const live = useLiveStream<ResourceItem>(client, `/api/k8s/${encodeURIComponent(resource)}/watch`, { namespace, labelSelector }, shape);
  const data = live.items && { items: live.items, total: live.items.length };
  return { data, error: live.error, loading: live.loading, refreshing: live.loading, updatedAt: live.updatedAt, reload: live.reload };
}
