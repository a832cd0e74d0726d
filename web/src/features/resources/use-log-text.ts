import { useEffect, useState } from 'react';
import { isAbort, readText } from '@pilothouse/wire/wire-client';
import { useApi } from '../../shared/api-context';
import { appendCapped, linePrefixer } from './log-lines';
import type { ResourceTarget } from '../../shared/resource-target';

const tailLines = 200;

export interface LogText {
  text: string;
  error: unknown;
  streaming: boolean;
  loading: boolean;
}

/** What to read: the containers (several: every line prefixed with its container), follow, the previous instance. */
export interface LogMode {
  follow: boolean;
  previous: boolean;
}

/** The log text with the pod, containers and mode it belongs to. */
type Keyed = LogText & { key: string };

const fresh = (streaming: boolean): LogText => ({ text: '', error: undefined, streaming, loading: true });

/** Streams or loads the log text of one or more containers; `follow` reads the bodies as they grow. Another choice starts empty. */
export function useLogText(target: ResourceTarget, containers: readonly string[], mode: LogMode): LogText {
  const client = useApi();
  const key = JSON.stringify([target.namespace, target.name, containers, mode.follow, mode.previous]);
  const [state, setState] = useState<Keyed>({ key, ...fresh(false) });
  useEffect(() => {
    const chosen: readonly string[] = JSON.parse(key)[2];
    if (chosen.length === 0) return;
    const controller = new AbortController();
    const update = (change: (previous: LogText) => LogText): void =>
      setState((previous) => ({ ...change(previous.key === key ? previous : fresh(mode.follow)), key }));
    const append = (chunk: string): void => update((previous) => ({ ...previous, loading: false, text: appendCapped(previous.text, chunk) }));
    const readOne = async (container: string): Promise<void> => {
      const query = { namespace: target.namespace, container, tail: tailLines, follow: mode.follow || undefined, previous: mode.previous || undefined };
      const response = await client.request('GET', `/api/pods/${encodeURIComponent(target.name)}/logs`, {
        query,
        signal: controller.signal,
        accept: 'text/plain',
      });
      const prefixer = chosen.length > 1 ? linePrefixer(container) : undefined;
      if (response.body) await readText(response.body, (chunk) => append(prefixer ? prefixer.push(chunk) : chunk), controller.signal);
      if (prefixer) append(prefixer.flush());
    };
    Promise.all(chosen.map(readOne)).then(
      () => !controller.signal.aborted && update((previous) => ({ ...previous, streaming: false, loading: false })),
      (error: unknown) => !controller.signal.aborted && !isAbort(error) && update((previous) => ({ ...previous, error, streaming: false, loading: false })),
    );
    return () => controller.abort();
  }, [client, key, target.name, target.namespace, mode.follow, mode.previous]);
  return state.key === key ? state : fresh(containers.length > 0 && mode.follow);
}
