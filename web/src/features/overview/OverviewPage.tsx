import type { ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { AccessCard } from './AccessCard';
import { AiCard } from './AiCard';
import { ClusterCard } from './ClusterCard';
import { EventsCard } from './EventsCard';
import { NodesCard } from './NodesCard';
import { WorkloadsCard } from './WorkloadsCard';
import './overview.css';

/** The landing page: cluster, nodes' use, workload health, warnings, access requests (reviewers), AI. */
export function OverviewPage({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const role = useApi().current?.role;
  return (
    <section className="page overview" aria-labelledby="overview-title">
      <div className="toolbar">
        <h1 id="overview-title">{t('overview.title')}</h1>
        <span className="muted small">{namespace ? t('overview.inNamespace', { namespace }) : t('overview.allNamespaces')}</span>
      </div>
      <div className="overview-grid">
        <ClusterCard />
        <AiCard />
        {role === 'admin' && <AccessCard />}
        <WorkloadsCard namespace={namespace} />
        <NodesCard />
        <EventsCard namespace={namespace} />
      </div>
    </section>
  );
}
