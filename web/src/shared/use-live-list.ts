import { useCallback, useEffect, useState } from 'react';
import type { ApiClient } from '../api/client';
import { ApiError, isAbort, readSse } from '@pilothouse/wire/wire-client';
import type { ListResponse } from '../api/list';
import { applyLiveEvent, liveListResponse, type LiveRows } from '../api/live-list';
import type { ResourceItem } from '@pilothouse/wire/types';
import type { Polled } from './use-polling';

type Keyed = Omit<Polled<ListResponse<ResourceItem>>, 'reload'> & { key: string };

const blank = { data: undefined, error: undefined, loading: true, refreshing: true, updatedAt: undefined };
/** Changes are drawn at most this often, so a burst of events (a rollout, 10,000 pods) re-renders once. */
const flushMs = 250;
/** Wait before reconnecting after the stream ended or failed. */
const retryMs = 2_000;

/** An answer asking again will not change: an unknown resource type (404) or a refused query (400). */
function isFinal(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

function wait(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, milliseconds);
    signal.addEventListener('abort', () => (window.clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * A list kept live by the server (`GET /api/k8s/{resource}/watch`): a snapshot, then added/modified/
 * deleted rows applied in place, so selection and scroll stay; reconnects after a dropped stream and
 * keeps the last rows on screen meanwhile (the error shows until the stream is back); an unknown resource type
 * or a refused query is not asked again.
 */
export function useLiveList(client: ApiClient, resource: string, namespace: string | undefined, labelSelector = ''): Polled<ListResponse<ResourceItem>> {
  const key = `${resource}|${namespace ?? ''}|${labelSelector}`;
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<Keyed>({ key, ...blank });

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const rows: LiveRows = new Map();
    let dirty = false;
    const flush = window.setInterval(() => {
      if (!dirty) return;
      dirty = false;
      setState({ key, data: liveListResponse(rows), error: undefined, loading: false, refreshing: false, updatedAt: Date.now() });
    }, flushMs);
    const follow = async (): Promise<void> => {
      while (!signal.aborted) {
        try {
          const response = await client.request('GET', `/api/k8s/${encodeURIComponent(resource)}/watch`, {
            query: { namespace, labelSelector },
            signal,
            accept: 'text/event-stream',
          });
          await readSse(response.body!, (event) => (dirty = applyLiveEvent(rows, event) || dirty), signal);
        } catch (error) {
          if (signal.aborted || isAbort(error)) return;
          setState((previous) => ({ ...(previous.key === key ? previous : { key, ...blank }), error, loading: false, refreshing: false }));
          if (isFinal(error)) return;
        }
        await wait(retryMs, signal);
      }
    };
    void follow();
    return () => {
      controller.abort();
      window.clearInterval(flush);
    };
  }, [client, resource, namespace, labelSelector, key, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...(state.key === key ? state : { key, ...blank }), reload };
}
