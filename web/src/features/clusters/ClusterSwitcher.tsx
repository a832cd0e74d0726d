import type { ReactNode } from 'react';
import type { ClusterSummary } from '@pilothouse/wire/types';
import { useT, type Translate } from '../../i18n';
import { useCluster } from '../../shared/cluster-context';
import { pagePath } from '../../shared/page-routes';
import { Link, switchCluster } from '../../shared/router';
import { clusterTone, currentClusterName, summaryOf } from './cluster-model';
import { useClusters } from './use-clusters';
import './clusters.css';

function optionLabel(item: ClusterSummary, t: Translate): string {
  return item.reachable ? item.name : t('clusters.optionDown', { name: item.name });
}

function stateLabel(summary: ClusterSummary | undefined, t: Translate): string {
  if (!summary) return t('clusters.unknown');
  return summary.reachable ? t('clusters.reachable') : t('clusters.down');
}

/**
 * The header's cluster switcher (ADR 0035): the current cluster's name with a reachable/down dot and its
 * version; choosing another shows the same page on that cluster (`?cluster=` in the URL). A native select:
 * keyboard and screen readers work as everywhere. Hidden while the service lists no clusters.
 */
export function ClusterSwitcher(): ReactNode {
  const t = useT();
  const clusters = useClusters();
  const current = currentClusterName(useCluster(), clusters.data);
  if (!clusters.data || !current) return null;
  const summary = summaryOf(clusters.data, current);
  const tone = clusterTone(summary);
  return (
    <div className="cluster-switcher">
      <span className={`dot dot-${tone}`} aria-hidden="true" />
      <label className="cluster-select">
        <span>{t('clusters.label')}</span>
        <select value={current} onChange={(event) => switchCluster(event.target.value)} data-testid="cluster-select">
          {!summary && <option value={current}>{t('clusters.optionUnknown', { name: current })}</option>}
          {clusters.data.items.map((item) => (
            <option key={item.name} value={item.name}>
              {optionLabel(item, t)}
            </option>
          ))}
        </select>
      </label>
      <span className="cluster-state small" role="status" data-testid="cluster-state">
        <span className="visually-hidden">{stateLabel(summary, t)} </span>
        {summary?.version ?? (tone === 'good' ? '' : stateLabel(summary, t))}
      </span>
      <Link to={pagePath({ page: 'clusters' })} className="small">
        {t('clusters.all')}
      </Link>
    </div>
  );
}
