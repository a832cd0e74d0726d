import { useCallback, useEffect, useState } from 'react';
import type { ApiClient } from '../api/client';
import { ApiError, isAbort, readSse, type Query } from '@pilothouse/wire/wire-client';
import { applyKeyedEvent } from '../api/live-list';

/** What a live stream shows: the items in order, the last snapshot's extra fields, the state of the stream. */
export interface LiveStream<T, Extra> {
  /** The items (undefined until the first snapshot). */
  items: T[] | undefined;
  /** The fields of the last snapshot besides its items (e.g. the counts of /api/problems/watch). */
  snapshot: Extra | undefined;
  error: unknown;
  /** True until the first snapshot of the current inputs arrives. */
  loading: boolean;
  updatedAt: number | undefined;
  reload: () => void;
}

/** How a stream's items are keyed and ordered. */
export interface LiveShape<T> {
  keyOf: (item: T) => string;
  order: (left: T, right: T) => number;
}

type Keyed<T, Extra> = Omit<LiveStream<T, Extra>, 'reload'> & { key: string };

const blank = { items: undefined, snapshot: undefined, error: undefined, loading: true, updatedAt: undefined };
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
 * Follows one live stream of the API (the live lists' SSE: a snapshot, then added/modified/deleted items
 * applied in place, so selection and scroll stay); reconnects after a dropped stream and keeps the last
 * items on screen meanwhile (the error shows until the stream is back). `shape` must be stable (module level).
 */
export function useLiveStream<T, Extra = Record<string, unknown>>(client: ApiClient, path: string, query: Query, shape: LiveShape<T>): LiveStream<T, Extra> {
  const queryText = JSON.stringify(query);
  const key = `${path}?${queryText}`;
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<Keyed<T, Extra>>({ key, ...blank });

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const rows = new Map<string, T>();
    let extra: Extra | undefined;
    let dirty = false;
    const flush = window.setInterval(() => {
      if (!dirty) return;
      dirty = false;
      setState({ key, items: [...rows.values()].sort(shape.order), snapshot: extra, error: undefined, loading: false, updatedAt: Date.now() });
    }, flushMs);
    const onSnapshot = (fields: Record<string, unknown>): void => {
      extra = fields as Extra;
    };
    const follow = async (): Promise<void> => {
      while (!signal.aborted) {
        try {
          const response = await client.request('GET', path, { query: JSON.parse(queryText) as Query, signal, accept: 'text/event-stream' });
          await readSse(response.body!, (event) => (dirty = applyKeyedEvent(rows, event, shape.keyOf, onSnapshot) || dirty), signal);
        } catch (error) {
          if (signal.aborted || isAbort(error)) return;
          setState((previous) => ({ ...(previous.key === key ? previous : { key, ...blank }), error, loading: false }));
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
  }, [client, path, queryText, key, shape, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...(state.key === key ? state : { key, ...blank }), reload };
}
