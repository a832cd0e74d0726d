import { useState, type FormEvent, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useApiQuery } from '../../shared/use-api-query';
import type { ChartHit } from './helm-types';

/** Search the added repositories' charts (helm search repo) and pick one. */
export function ChartSearch({ onPick }: { onPick: (chart: ChartHit) => void }): ReactNode {
  const t = useT();
  const [draft, setDraft] = useState('');
  const [keyword, setKeyword] = useState<string>();
  const charts = useApiQuery('/api/helm/charts', { query: { keyword }, enabled: keyword !== undefined });
  const search = (event: FormEvent): void => {
    event.preventDefault();
    setKeyword(draft.trim());
  };
  return (
    <div>
      <form className="form-row" onSubmit={search} role="search" aria-label={t('helm.searchCharts')}>
        <label className="field">
          <span>{t('helm.searchCharts')}</span>
          <input type="search" value={draft} onChange={(event) => setDraft(event.target.value)} placeholder={t('helm.searchPlaceholder')} />
        </label>
        <button type="submit">{t('helm.search')}</button>
      </form>
      <ErrorNotice error={charts.error} compact />
      {charts.data && charts.data.items.length === 0 && <p className="muted">{t('helm.noCharts')}</p>}
      {charts.data && charts.data.items.length > 0 && (
        <ul className="chart-hits">
          {charts.data.items.map((chart) => (
            <li key={chart.name}>
              <button type="button" className="link-button" onClick={() => onPick(chart)}>
                {chart.name}
              </button>{' '}
              <span className="muted small">
                {chart.version} · {chart.appVersion} — {chart.description}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
