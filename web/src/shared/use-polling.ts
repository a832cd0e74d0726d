import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort } from '../api/errors';

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

/**
 * Loads `load` now and every `intervalMs` in the background, never blocking the UI: old data
 * stays on screen while a refresh runs; a tick is skipped while a request is still running or
 * the page is hidden. Changing `key` starts over (old data dropped, running request aborted).
 */
export function usePolling<T>(key: string, load: (signal: AbortSignal) => Promise<T>, intervalMs: number): Polled<T> {
  const [state, setState] = useState<Omit<Polled<T>, 'reload'>>({ data: undefined, error: undefined, loading: true, refreshing: false, updatedAt: undefined });
  const loadRef = useRef(load);
  loadRef.current = load;
  const running = useRef<AbortController | null>(null);

  const run = useCallback(() => {
    if (running.current) return;
    const controller = new AbortController();
    running.current = controller;
    setState((previous) => ({ ...previous, refreshing: true }));
    loadRef
      .current(controller.signal)
      .then(
        (data) => {
          if (controller.signal.aborted) return;
          setState({ data, error: undefined, loading: false, refreshing: false, updatedAt: Date.now() });
        },
        (error: unknown) => {
          if (controller.signal.aborted || isAbort(error)) return;
          setState((previous) => ({ ...previous, error, loading: false, refreshing: false }));
        },
      )
      .finally(() => {
        if (running.current === controller) running.current = null;
      });
  }, []);

  useEffect(() => {
    setState({ data: undefined, error: undefined, loading: true, refreshing: false, updatedAt: undefined });
    run();
    const timer = window.setInterval(() => {
      if (!document.hidden) run();
    }, intervalMs);
    return () => {
      window.clearInterval(timer);
      running.current?.abort();
      running.current = null;
    };
  }, [key, intervalMs, run]);

  return { ...state, reload: run };
}
