import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useApi } from '../../app/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { useLoad } from '../../shared/use-load';
import { objectPath, targetKey, type ResourceTarget } from './target';
import { useLogText, type LogText } from './use-log-text';

interface PodObject {
  spec?: { containers?: { name: string }[]; initContainers?: { name: string }[] };
}

function containerNames(pod: PodObject | undefined): string[] {
  return [...(pod?.spec?.containers ?? []), ...(pod?.spec?.initContainers ?? [])].map((container) => container.name);
}

/** The container picker, shown for pods with more than one container. */
function ContainerPicker({ containers, value, onChange }: { containers: string[]; value: string | undefined; onChange: (name: string) => void }): ReactNode {
  const t = useT();
  if (containers.length < 2) return null;
  return (
    <label className="inline-field">
      <span>{t('logs.container')}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {containers.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** "Loading" while the pod or its first lines are on the way, "no logs" when the answer is empty. */
function LogsNotice({ pod, logs }: { pod: { loading: boolean; error: unknown }; logs: LogText }): ReactNode {
  const t = useT();
  const nothingYet = !logs.text && !logs.error;
  return (
    <>
      {nothingYet && (pod.loading || logs.loading) && !pod.error && <p className="muted">{t('tab.loading')}</p>}
      {nothingYet && !logs.loading && <p className="muted">{t('logs.empty')}</p>}
    </>
  );
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
        <ContainerPicker containers={containers} value={container} onChange={setChosen} />
        <label className="inline-field checkbox">
          <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} />
          <span>{t('logs.follow')}</span>
        </label>
        {logs.streaming && <Spinner label={t('logs.following')} />}
      </div>
      <ErrorNotice error={pod.error ?? logs.error} />
      <LogsNotice pod={pod} logs={logs} />
      {logs.text && (
        <pre ref={output} className="code logs" tabIndex={0} aria-label={t('tab.logs')} aria-live={follow ? 'off' : undefined}>
          {logs.text}
        </pre>
      )}
    </div>
  );
}
