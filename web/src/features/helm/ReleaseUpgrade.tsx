import { useState, type ReactNode } from 'react';
import { ChartFields, chartBody, useReleaseRun, type ChartRef } from './ChartFields';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { useApiQuery } from '../../shared/use-api-query';
import { chartNameOf, type ReleaseDetails } from './helm-types';
import { ReleaseProgress } from './ReleaseProgress';
import { ValuesEditor } from './ValuesEditor';

/** Upgrade: chart (repo/chart or a chart name with a repository URL), version, values (prefilled with the release's). */
export function ReleaseUpgrade({ release, onDone }: { release: ReleaseDetails; onDone: () => void }): ReactNode {
  const t = useT();
  const client = useApi();
  const values = useApiQuery('/api/helm/releases/{name}/values', { path: { name: release.name }, query: { namespace: release.namespace } });
  const [ref, setRef] = useState<ChartRef>({ chart: chartNameOf(release.chart), repo: '', version: '' });
  const [text, setText] = useState<string>();
  // Keep (default): the release's current values, shown in the editor, are sent again; replace: start from the chart's defaults.
  const [replace, setReplace] = useState(false);
  const previous = values.data ? JSON.stringify(values.data.values ?? {}, null, 2) : '';
  const shown = text ?? (replace ? '{}' : previous);
  const choose = (replacing: boolean): void => {
    setReplace(replacing);
    setText(undefined);
  };

  const { phase, error, submit } = useReleaseRun(async () => {
    const body = { name: release.name, namespace: release.namespace, ...chartBody(ref), valuesYaml: shown };
    await client.call('POST', '/api/helm/upgrade', { body });
  }, onDone);

  return (
    <form onSubmit={submit} aria-label={t('helm.upgrade')}>
      <ChartFields value={ref} onChange={setRef} />
      <fieldset className="form-row" aria-label={t('helm.valuesMode')}>
        <label>
          <input type="radio" name="upgrade-values-mode" checked={!replace} onChange={() => choose(false)} /> {t('helm.keepValues')}
        </label>
        <label>
          <input type="radio" name="upgrade-values-mode" checked={replace} onChange={() => choose(true)} /> {t('helm.replaceValues')}
        </label>
      </fieldset>
      <p className="muted small">{replace ? t('helm.replaceValuesHelp') : t('helm.keepValuesHelp')}</p>
      <ValuesEditor id="upgrade-values" value={shown} onChange={setText} />
      <button type="submit" className="primary" disabled={phase === 'running'}>
        {t('helm.upgrade')}
      </button>
      <ReleaseProgress phase={phase} namespace={release.namespace} release={release.name} error={error} />
    </form>
  );
}
