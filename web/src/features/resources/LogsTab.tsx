import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { useApiQuery } from '../../shared/use-api-query';
import { matchingLines } from './log-lines';
import { objectParams, type ResourceTarget } from '../../shared/resource-target';
import { useLogText, type LogText } from './use-log-text';

interface PodObject {
  spec?: { containers?: { name: string }[]; initContainers?: { name: string }[] };
}

/** The picker's value for "every container". */
const everyContainer = '*';

function containerNames(pod: PodObject | undefined): string[] {
  return [...(pod?.spec?.containers ?? []), ...(pod?.spec?.initContainers ?? [])].map((container) => container.name);
}

/** The container picker, shown for pods with more than one container ("All containers" first). */
function ContainerPicker({ containers, value, onChange }: { containers: string[]; value: string; onChange: (name: string) => void }): ReactNode {
  const t = useT();
  if (containers.length < 2) return null;
  return (
    <label className="inline-field">
      <span>{t('logs.container')}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value={everyContainer}>{t('objects.logs.allContainers')}</option>
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
function LogsNotice({ pod, logs }: { pod: { isPending: boolean; error: unknown }; logs: LogText }): ReactNode {
  const t = useT();
  const nothingYet = !logs.text && !logs.error;
  return (
    <>
      {nothingYet && (pod.isPending || logs.loading) && !pod.error && <p className="muted">{t('tab.loading')}</p>}
      {nothingYet && !logs.loading && <p className="muted">{t('logs.empty')}</p>}
    </>
  );
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `${name}.log`;
  anchor.click();
  URL.revokeObjectURL(url);
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }): ReactNode {
  return (
    <label className="inline-field checkbox">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** Pod logs: one or all containers, last 200 lines, follow, the previous instance, a search that keeps matching lines, download. */
export function LogsTab({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const pod = useApiQuery('/api/k8s/{resource}/{name}', objectParams(target));
  const containers = containerNames(pod.data as PodObject | undefined);
  const [chosen, setChosen] = useState<string>();
  const [follow, setFollow] = useState(false);
  const [previous, setPrevious] = useState(false);
  const [search, setSearch] = useState('');
  const container = chosen ?? containers[0] ?? '';
  const names = containers.join('\u0000');
  const selected = useMemo(() => (container === everyContainer ? names.split('\u0000') : container ? [container] : []), [container, names]);
  const logs = useLogText(target, selected, { follow, previous });
  const shown = useMemo(() => matchingLines(logs.text, search), [logs.text, search]);
  const output = useRef<HTMLPreElement>(null);

  useEffect(() => {
    const element = output.current;
    if (element && follow) element.scrollTop = element.scrollHeight;
  }, [shown, follow]);

  return (
    <div className="logs-tab">
      <div className="tab-actions">
        <ContainerPicker containers={containers} value={container} onChange={setChosen} />
        <Check label={t('logs.follow')} checked={follow} onChange={setFollow} />
        <Check label={t('objects.logs.previous')} checked={previous} onChange={setPrevious} />
        <label className="inline-field">
          <span className="visually-hidden">{t('objects.logs.search')}</span>
          <input
            type="search"
            className="logs-search"
            value={search}
            placeholder={t('objects.logs.search')}
            onChange={(event) => setSearch(event.target.value)}
          />
        </label>
        <button
          type="button"
          onClick={() => download(`${target.name}${container && container !== everyContainer ? `-${container}` : ''}`, logs.text)}
          disabled={!logs.text}
        >
          {t('objects.logs.download')}
        </button>
        {logs.streaming && <Spinner label={t('logs.following')} />}
      </div>
      <ErrorNotice error={pod.error ?? logs.error} />
      <LogsNotice pod={pod} logs={logs} />
      {logs.text && (
        <pre ref={output} className="code logs" tabIndex={0} aria-label={t('tab.logs')} aria-live={follow ? 'off' : undefined}>
          {shown}
        </pre>
      )}
    </div>
  );
}
