import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort } from '@pilothouse/wire/wire-client';
import { useCluster } from './cluster-context';

export interface Polled<T> {
  /** The last good answer (kept while a refresh runs or after a refresh fails). */
  data: T | undefined;
  error: unknown;
  /** True until the first answer for the current inputs arrives. */
  loading: boolean;
  /** True while any request runs (initial or background). */
  refreshing: boolean;
  updatedAt: number | undefined;
  reload: () => void;
}

/** The polled state with the key it belongs to. */
type Keyed<T> = Omit<Polled<T>, 'reload'> & { key: string };

/** The state of a key nothing has answered yet: its first request runs. */
const blank = { data: undefined, error: undefined, loading: true, refreshing: true, updatedAt: undefined };

function current<T>(state: Keyed<T>, key: string): Keyed<T> {
  return state.key === key ? state : { key, ...blank };
}

/**
 * Loads `load` now and every `intervalMs` in the background, never blocking the UI: old data
 * stays on screen while a refresh runs; a tick is skipped while a request is still running or
 * the page is hidden. Changing `key` starts over (old data dropped, running request aborted); so does
 * switching clusters (the key is the cluster's: one cluster's answer is never shown as another's).
 */
export function usePolling<T>(name: string, load: (signal: AbortSignal) => Promise<T>, intervalMs: number): Polled<T> {
  const key = `${useCluster()}\u0000${name}`;
  const [state, setState] = useState<Keyed<T>>({ key, ...blank });
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  }, [load]);
  const running = useRef<AbortController | null>(null);

  const start = useCallback((forKey: string): void => {
    const controller = new AbortController();
    running.current = controller;
    loadRef
      .current(controller.signal)
      .then(
        (data) => !controller.signal.aborted && setState({ key: forKey, data, error: undefined, loading: false, refreshing: false, updatedAt: Date.now() }),
        (error: unknown) =>
          !controller.signal.aborted && !isAbort(error) && setState((previous) => ({ ...current(previous, forKey), error, loading: false, refreshing: false })),
      )
      .finally(() => {
        if (running.current === controller) running.current = null;
      });
  }, []);

  /** A background refresh (tick or reload): skipped while a request runs. */
  const refresh = useCallback(
    (forKey: string): void => {
      if (running.current) return;
      setState((previous) => ({ ...current(previous, forKey), refreshing: true }));
      start(forKey);
    },
    [start],
  );

  useEffect(() => {
    start(key);
    const timer = window.setInterval(() => {
      if (!document.hidden) refresh(key);
    }, intervalMs);
    return () => {
      window.clearInterval(timer);
      running.current?.abort();
      running.current = null;
    };
  }, [key, intervalMs, start, refresh]);

  const reload = useCallback(() => refresh(key), [refresh, key]);
  return { ...current(state, key), reload };
}
