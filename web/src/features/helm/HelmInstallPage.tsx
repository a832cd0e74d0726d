import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { Link } from '../../shared/router';
import { useT } from '../../i18n';
import { ChartSearch } from './ChartSearch';
import { releasePath } from './helm-types';
import { ReleaseProgress, type Phase } from './ReleaseProgress';
import { ValuesEditor } from './ValuesEditor';
import '../layout/pages.css';

interface InstallDraft {
  name: string;
  namespace: string;
  chart: string;
  repo: string;
  version: string;
  values: string;
  createNamespace: boolean;
}

/** Install a chart: search the repositories (or name a chart and its repository URL), a values editor, live progress. */
export function HelmInstallPage({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const client = useApi();
  const queries = useQueryClient();
  const [draft, setDraft] = useState<InstallDraft>({
    name: '',
    namespace: namespace || 'default',
    chart: '',
    repo: '',
    version: '',
    values: '',
    createNamespace: false,
  });
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<unknown>();
  const [installed, setInstalled] = useState<{ name: string; namespace: string }>();
  const set = (key: keyof InstallDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value });

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setPhase('running');
    setError(undefined);
    try {
      const body = {
        name: draft.name.trim(),
        namespace: draft.namespace.trim(),
        chart: draft.chart.trim(),
        repo: draft.repo.trim() || undefined,
        version: draft.version.trim() || undefined,
        valuesYaml: draft.values,
        createNamespace: draft.createNamespace,
      };
      await client.call('POST', '/api/helm/install', { body });
      setInstalled({ name: body.name, namespace: body.namespace });
      setPhase('done');
      await queries.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith('/api/helm/releases') });
    } catch (failure) {
      setError(failure);
      setPhase('failed');
    }
  };

  return (
    <section className="page" aria-labelledby="install-title">
      <div className="toolbar">
        <Link to="/helm">{t('helm.back')}</Link>
        <h1 id="install-title">{t('helm.installTitle')}</h1>
      </div>
      <section className="card page-section" aria-label={t('helm.searchCharts')}>
        <ChartSearch
          onPick={(chart) => setDraft({ ...draft, chart: chart.name, version: chart.version, name: draft.name || (chart.name.split('/').pop() ?? '') })}
        />
      </section>
      <form className="card page-section" onSubmit={(event) => void submit(event)} aria-label={t('helm.installTitle')}>
        <div className="form-row">
          <label className="field">
            <span>{t('helm.chartRef')}</span>
            <input value={draft.chart} onChange={set('chart')} required placeholder="repo/chart" />
          </label>
          <label className="field">
            <span>{t('helm.repoUrl')}</span>
            <input type="url" value={draft.repo} onChange={set('repo')} placeholder="https://charts.example.org" />
          </label>
          <label className="field">
            <span>{t('helm.version')}</span>
            <input value={draft.version} onChange={set('version')} placeholder={t('helm.latest')} />
          </label>
        </div>
        <div className="form-row">
          <label className="field">
            <span>{t('helm.releaseName')}</span>
            <input value={draft.name} onChange={set('name')} required pattern="[a-z0-9]([\-a-z0-9]*[a-z0-9])?" />
          </label>
          <label className="field">
            <span>{t('helm.namespace')}</span>
            <input value={draft.namespace} onChange={set('namespace')} required />
          </label>
          <label className="checkbox-field">
            <input type="checkbox" checked={draft.createNamespace} onChange={(event) => setDraft({ ...draft, createNamespace: event.target.checked })} />
            <span>{t('helm.createNamespace')}</span>
          </label>
        </div>
        <ValuesEditor id="install-values" value={draft.values} onChange={(values) => setDraft({ ...draft, values })} />
        <button type="submit" className="primary" disabled={phase === 'running'}>
          {t('helm.install')}
        </button>
      </form>
      <ReleaseProgress phase={phase} namespace={installed?.namespace ?? draft.namespace} release={installed?.name} error={error} />
      {installed && phase === 'done' && (
        <p className="pad">
          <Link to={releasePath(installed)}>{t('helm.openRelease', { name: installed.name })}</Link>
        </p>
      )}
    </section>
  );
}
