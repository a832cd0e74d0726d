import type { ReactNode } from 'react';
import type { ListResponse } from '../../api/list';
import type { ResourceItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { Link } from '../../shared/router';
import { useT, type Translate } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useLiveList } from '../../shared/use-live-list';
import { objectPath } from '../palette/palette-items';
import { countOf, crashLoopingPods, listLink, pendingPods, unavailableDeployments, type PodProblem } from './overview-model';
import { Card, Stat } from './Stat';

const itemsOf = (list: ListResponse<ResourceItem> | undefined): ResourceItem[] => list?.items ?? [];

type Lists = { pods?: ListResponse<ResourceItem>; deployments?: ListResponse<ResourceItem>; events?: ListResponse<ResourceItem> };

function ProblemList({ problems, label }: { problems: PodProblem[]; label: string }): ReactNode {
  if (problems.length === 0) return null;
  return (
    <ul className="overview-list" aria-label={label}>
      {problems.slice(0, 8).map((pod) => (
        <li key={`${pod.namespace}/${pod.name}`}>
          <Link to={objectPath(pod.kind ?? 'pods', pod.name, pod.namespace)}>
            {pod.namespace}/{pod.name}
          </Link>{' '}
          <span className="tone-bad">{pod.reason}</span>
          {pod.message && <div className="muted small">{pod.message}</div>}
        </li>
      ))}
    </ul>
  );
}

/** The five numbers of the card, each linked to the list behind it. */
function WorkloadStats({ lists, t }: { lists: Lists; t: Translate }): ReactNode {
  const pods = lists.pods;
  const events = lists.events?.items ?? [];
  const tone = (count: number | '…', bad: 'bad' | 'warn'): 'good' | 'bad' | 'warn' => (count === 0 ? 'good' : bad);
  const crashing = countOf(pods, crashLoopingPods);
  const pending = countOf(pods, (items) => pendingPods(items, events));
  const short = countOf(lists.deployments, unavailableDeployments);
  return (
    <div className="stats">
      <Stat value={countOf(pods)} label={t('overview.pods')} to={listLink('pods')} />
      <Stat value={countOf(lists.deployments)} label={t('overview.deployments')} to={listLink('deployments')} />
      <Stat value={short} label={t('overview.deploymentsUnavailable')} to={listLink('deployments')} tone={tone(short, 'bad')} />
      <Stat value={crashing} label={t('overview.crashLooping')} to={listLink('pods', 'CrashLoopBackOff')} tone={tone(crashing, 'bad')} />
      <Stat value={pending} label={t('overview.pending')} to={listLink('pods', 'Pending')} tone={tone(pending, 'warn')} />
    </div>
  );
}

/** Workload health, live: deployments short of replicas, crash-looping and pending pods with the reason. */
export function WorkloadsCard({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const client = useApi();
  const pods = useLiveList(client, 'pods', namespace || undefined);
  const deployments = useLiveList(client, 'deployments', namespace || undefined);
  const events = useLiveList(client, 'events', namespace || undefined);
  const podItems = itemsOf(pods.data);
  const eventItems = itemsOf(events.data);
  const short = unavailableDeployments(itemsOf(deployments.data)).map((deployment) => ({
    ...deployment,
    kind: 'deployments',
    reason: t('overview.readyOf', { ready: deployment.ready }),
    restarts: '',
  }));
  return (
    <Card title={t('overview.workloads')} id="overview-workloads" wide>
      <WorkloadStats lists={{ pods: pods.data, deployments: deployments.data, events: events.data }} t={t} />
      <ProblemList problems={short} label={t('overview.deploymentsUnavailable')} />
      <ProblemList problems={crashLoopingPods(podItems)} label={t('overview.crashLooping')} />
      <ProblemList problems={pendingPods(podItems, eventItems)} label={t('overview.pending')} />
      <ErrorNotice error={pods.error ?? deployments.error} compact />
    </Card>
  );
}
