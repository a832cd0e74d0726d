import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort } from '../api/errors';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads once per `key` (aborting the previous load); `reload()` loads again. */
export function useLoad<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<Omit<Loaded<T>, 'reload'>>({ data: undefined, error: undefined, loading: true });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const loadedKey = useRef<string | undefined>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    const sameKey = loadedKey.current === key;
    loadedKey.current = key;
    // A reload of the same thing keeps showing the old data until the new answer arrives.
    setState((previous) => ({ data: sameKey ? previous.data : undefined, error: undefined, loading: true }));
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, error: undefined, loading: false }),
      (error: unknown) => !controller.signal.aborted && !isAbort(error) && setState({ data: undefined, error, loading: false }),
    );
    return () => controller.abort();
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, reload };
}
