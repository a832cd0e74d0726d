import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { isAbort } from '../../api/errors';
import { readText } from '../../api/sse';
import { useApi } from '../../app/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { useLoad } from '../../shared/use-load';
import { objectPath, targetKey, type ResourceTarget } from './target';

const tailLines = 200;
/** Followed logs keep at most this many characters (the oldest are dropped). */
const maxChars = 512 * 1024;

interface PodObject {
  spec?: { containers?: { name: string }[]; initContainers?: { name: string }[] };
}

function containerNames(pod: PodObject | undefined): string[] {
  return [...(pod?.spec?.containers ?? []), ...(pod?.spec?.initContainers ?? [])].map((container) => container.name);
}

/** Streams or loads the log text of one container; `follow` reads the body as it grows. */
function useLogText(
  target: ResourceTarget,
  container: string | undefined,
  follow: boolean,
): { text: string; error: unknown; streaming: boolean; loading: boolean } {
  const client = useApi();
  const [state, setState] = useState({ text: '', error: undefined as unknown, streaming: false, loading: true });
  useEffect(() => {
    if (container === undefined) return;
    const controller = new AbortController();
    setState({ text: '', error: undefined, streaming: follow, loading: true });
    const append = (chunk: string): void =>
      setState((previous) => {
        const text = previous.text + chunk;
        return { ...previous, loading: false, text: text.length > maxChars ? text.slice(text.length - maxChars) : text };
      });
    const query = { namespace: target.namespace, container, tail: tailLines, follow: follow || undefined };
    const run = async (): Promise<void> => {
      const response = await client.request('GET', `/api/pods/${encodeURIComponent(target.name)}/logs`, {
        query,
        signal: controller.signal,
        accept: 'text/plain',
      });
      if (response.body) await readText(response.body, append, controller.signal);
    };
    run().then(
      () => !controller.signal.aborted && setState((previous) => ({ ...previous, streaming: false, loading: false })),
      (error: unknown) => !controller.signal.aborted && !isAbort(error) && setState((previous) => ({ ...previous, error, streaming: false, loading: false })),
    );
    return () => controller.abort();
  }, [client, target.name, target.namespace, container, follow]);
  return state;
}

/** Pod logs: container picker (multi-container pods), last 200 lines, "follow" streams new lines. */
export function LogsTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const loadPod = useCallback(
    (signal: AbortSignal) => client.json<PodObject>('GET', objectPath(target), { query: { namespace: target.namespace }, signal }),
    [client, target],
  );
  const pod = useLoad(targetKey(target), loadPod);
  const containers = containerNames(pod.data);
  const [chosen, setChosen] = useState<string>();
  const [follow, setFollow] = useState(false);
  const container = chosen ?? containers[0];
  const logs = useLogText(target, container, follow);
  const output = useRef<HTMLPreElement>(null);

  useEffect(() => {
    const element = output.current;
    if (element && follow) element.scrollTop = element.scrollHeight;
  }, [logs.text, follow]);

  return (
    <div className="logs-tab">
      <div className="tab-actions">
        {containers.length > 1 && (
          <label className="inline-field">
            <span>{t('logs.container')}</span>
            <select value={container} onChange={(event) => setChosen(event.target.value)}>
              {containers.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="inline-field checkbox">
          <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} />
          <span>{t('logs.follow')}</span>
        </label>
        {logs.streaming && <Spinner label={t('logs.following')} />}
      </div>
      <ErrorNotice error={pod.error ?? logs.error} />
      {(pod.loading || logs.loading) && !logs.text && !logs.error && !pod.error && <p className="muted">{t('tab.loading')}</p>}
      {!logs.loading && !logs.text && !logs.error && <p className="muted">{t('logs.empty')}</p>}
      {logs.text && (
        <pre ref={output} className="code logs" tabIndex={0} aria-label={t('tab.logs')} aria-live={follow ? 'off' : undefined}>
          {logs.text}
        </pre>
      )}
    </div>
  );
}
