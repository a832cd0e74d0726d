import { useEffect, useState } from 'react';
import { isAbort } from '../../api/errors';
import { readText } from '../../api/sse';
import { useApi } from '../../app/api-context';
import type { ResourceTarget } from './target';

const tailLines = 200;
/** Followed logs keep at most this many characters (the oldest are dropped). */
const maxChars = 512 * 1024;

export interface LogText {
  text: string;
  error: unknown;
  streaming: boolean;
  loading: boolean;
}

/** The log text with the pod, container and mode it belongs to. */
type Keyed = LogText & { key: string };

const fresh = (streaming: boolean): LogText => ({ text: '', error: undefined, streaming, loading: true });

function appended(previous: LogText, chunk: string): LogText {
  const text = previous.text + chunk;
  return { ...previous, loading: false, text: text.length > maxChars ? text.slice(text.length - maxChars) : text };
}

/** Streams or loads the log text of one container; `follow` reads the body as it grows. Another container or mode starts empty. */
export function useLogText(target: ResourceTarget, container: string | undefined, follow: boolean): LogText {
  const client = useApi();
  const key = JSON.stringify([target.namespace, target.name, container, follow]);
  const [state, setState] = useState<Keyed>({ key, ...fresh(false) });
  useEffect(() => {
    if (container === undefined) return;
    const controller = new AbortController();
    const update = (change: (previous: LogText) => LogText): void =>
      setState((previous) => ({ ...change(previous.key === key ? previous : fresh(follow)), key }));
    const query = { namespace: target.namespace, container, tail: tailLines, follow: follow || undefined };
    const run = async (): Promise<void> => {
      const response = await client.request('GET', `/api/pods/${encodeURIComponent(target.name)}/logs`, {
        query,
        signal: controller.signal,
        accept: 'text/plain',
      });
      if (response.body) await readText(response.body, (chunk) => update((previous) => appended(previous, chunk)), controller.signal);
    };
    run().then(
      () => !controller.signal.aborted && update((previous) => ({ ...previous, streaming: false, loading: false })),
      (error: unknown) => !controller.signal.aborted && !isAbort(error) && update((previous) => ({ ...previous, error, streaming: false, loading: false })),
    );
    return () => controller.abort();
  }, [client, key, target.name, target.namespace, container, follow]);
  return state.key === key ? state : fresh(container !== undefined && follow);
}
