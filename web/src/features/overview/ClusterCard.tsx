import type { ReactNode } from 'react';
import type { Health } from '@pilothouse/wire/types';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useApiQuery } from '../../shared/use-api-query';
import { countOf, listLink, notReadyNodes } from './overview-model';
import { Card, Stat } from './Stat';

function HealthFact({ health }: { health: Health | undefined }): ReactNode {
  const t = useT();
  if (!health) return <dd>…</dd>;
  const healthy = health.status === 'healthy';
  return (
    <dd className={healthy ? 'tone-good' : 'tone-bad'}>
      {t(healthy ? 'overview.healthy' : 'overview.degraded')}
      <span className="muted small"> · {t('overview.kubernetesState', { value: health.kubernetes })}</span>
    </dd>
  );
}

/** Cluster version and health, nodes and namespaces counted. */
export function ClusterCard(): ReactNode {
  const t = useT();
  const health = useApiQuery('/api/health', { refetchInterval: 15_000 });
  const version = useApiQuery('/api/cluster/version');
  const nodes = useApiQuery('/api/k8s/{resource}', { path: { resource: 'nodes' } });
  const namespaces = useApiQuery('/api/k8s/{resource}', { path: { resource: 'namespaces' } });
  const notReady = countOf(nodes.data, notReadyNodes);
  return (
    <Card title={t('overview.cluster')} id="overview-cluster">
      <dl className="overview-facts">
        <dt>{t('overview.version')}</dt>
        <dd data-testid="cluster-version">{version.data?.gitVersion ?? '…'}</dd>
        <dt>{t('overview.health')}</dt>
        <HealthFact health={health.data} />
      </dl>
      <div className="stats">
        <Stat value={countOf(nodes.data)} label={t('overview.nodes')} to={listLink('nodes')} />
        <Stat value={notReady} label={t('overview.nodesNotReady')} to={listLink('nodes', 'NotReady')} tone={notReady === 0 ? 'good' : 'bad'} />
        <Stat value={countOf(namespaces.data)} label={t('overview.namespaces')} to={listLink('namespaces')} />
      </div>
      <ErrorNotice error={version.error ?? nodes.error} compact />
    </Card>
  );
}
