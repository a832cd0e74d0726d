import { useState, type FormEvent, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { useApiQuery } from '../../shared/use-api-query';
import { chartNameOf, type ReleaseDetails } from './helm-types';
import { ReleaseProgress, type Phase } from './ReleaseProgress';
import { ValuesEditor } from './ValuesEditor';

/** Upgrade: chart (repo/chart or a chart name with a repository URL), version, values (prefilled with the release's). */
export function ReleaseUpgrade({ release, onDone }: { release: ReleaseDetails; onDone: () => void }): ReactNode {
  const t = useT();
  const client = useApi();
  const values = useApiQuery('/api/helm/releases/{name}/values', { path: { name: release.name }, query: { namespace: release.namespace } });
  const [chart, setChart] = useState(chartNameOf(release.chart));
  const [repo, setRepo] = useState('');
  const [version, setVersion] = useState('');
  const [text, setText] = useState<string>();
  // Keep (default): the release's current values, shown in the editor, are sent again; replace: start from the chart's defaults.
  const [replace, setReplace] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<unknown>();
  const previous = values.data ? JSON.stringify(values.data.values ?? {}, null, 2) : '';
  const shown = text ?? (replace ? '{}' : previous);
  const choose = (replacing: boolean): void => {
    setReplace(replacing);
    setText(undefined);
  };

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setPhase('running');
    setError(undefined);
    try {
      const body = {
        name: release.name,
        namespace: release.namespace,
        chart: chart.trim(),
        repo: repo.trim() || undefined,
        version: version.trim() || undefined,
        valuesYaml: shown,
      };
      await client.call('POST', '/api/helm/upgrade', { body });
      setPhase('done');
      onDone();
    } catch (failure) {
      setError(failure);
      setPhase('failed');
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} aria-label={t('helm.upgrade')}>
      <div className="form-row">
        <label className="field">
          <span>{t('helm.chartRef')}</span>
          <input value={chart} onChange={(event) => setChart(event.target.value)} required />
        </label>
        <label className="field">
          <span>{t('helm.repoUrl')}</span>
          <input type="url" value={repo} onChange={(event) => setRepo(event.target.value)} placeholder="https://charts.example.org" />
        </label>
        <label className="field">
          <span>{t('helm.version')}</span>
          <input value={version} onChange={(event) => setVersion(event.target.value)} placeholder={t('helm.latest')} />
        </label>
      </div>
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
