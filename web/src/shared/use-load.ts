import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort } from '@pilothouse/wire/wire-client';
import { useCluster } from './cluster-context';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** The last answer, with the inputs it answers. */
interface Settled<T> {
  key: string;
  generation: number;
  data: T | undefined;
  error: unknown;
}

/** What the caller sees: nothing while another key loads; the old data while the same key reloads. */
function view<T>(settled: Settled<T> | undefined, key: string, generation: number): Omit<Loaded<T>, 'reload'> {
  if (!settled || settled.key !== key) return { data: undefined, error: undefined, loading: true };
  if (settled.generation !== generation) return { data: settled.data, error: undefined, loading: true };
  return { data: settled.data, error: settled.error, loading: false };
}

/** Loads once per `key` and cluster (aborting the previous load); `reload()` loads again. */
export function useLoad<T>(name: string, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const key = `${useCluster()}\u0000${name}`;
  const [settled, setSettled] = useState<Settled<T>>();
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  }, [load]);

  useEffect(() => {
    const controller = new AbortController();
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setSettled({ key, generation, data, error: undefined }),
      (error: unknown) => !controller.signal.aborted && !isAbort(error) && setSettled({ key, generation, data: undefined, error }),
    );
    return () => controller.abort();
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...view(settled, key, generation), reload };
}
