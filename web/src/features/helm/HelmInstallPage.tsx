import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { TextField } from '../../shared/TextField';
import { ChartFields, chartBody, useReleaseRun, type ChartRef } from './ChartFields';
import { useApi } from '../../shared/api-context';
import { Link } from '../../shared/router';
import { useT } from '../../i18n';
import { ChartSearch } from './ChartSearch';
import { releasePath } from './helm-types';
import { ReleaseProgress } from './ReleaseProgress';
import { ValuesEditor } from './ValuesEditor';
import '../layout/pages.css';

interface InstallDraft extends ChartRef {
  name: string;
  namespace: string;
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
  const [installed, setInstalled] = useState<{ name: string; namespace: string }>();
  const set = (key: keyof InstallDraft) => (value: string) => setDraft({ ...draft, [key]: value });

  const { phase, error, submit } = useReleaseRun(
    async () => {
      const body = {
        name: draft.name.trim(),
        namespace: draft.namespace.trim(),
        ...chartBody(draft),
        valuesYaml: draft.values,
        createNamespace: draft.createNamespace,
      };
      await client.call('POST', '/api/helm/install', { body });
      setInstalled({ name: body.name, namespace: body.namespace });
    },
    () => queries.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith('/api/helm/releases') }),
  );

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
      <form className="card page-section" onSubmit={submit} aria-label={t('helm.installTitle')}>
        <ChartFields value={draft} onChange={(ref) => setDraft({ ...draft, ...ref })} chartPlaceholder="repo/chart" />
        <div className="form-row">
          <TextField label={t('helm.releaseName')} value={draft.name} onValue={set('name')} required pattern="[a-z0-9]([\-a-z0-9]*[a-z0-9])?" />
          <TextField label={t('helm.namespace')} value={draft.namespace} onValue={set('namespace')} required />
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
