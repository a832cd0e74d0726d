import { useMemo, useState, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useApiQuery } from '../../shared/use-api-query';
import { objectPath } from '../palette/palette-items';
import { Link } from '../../shared/router';
import { averagePercent, type NodeUsage } from './overview-model';
import { Card } from './Stat';
import { UsageChart, usageWindowMs, type UsageSample } from './UsageChart';
import { useHistorySeed } from '../history/use-history-seed';

function Meter({ value, label }: { value: number | null; label: string }): ReactNode {
  return (
    <span className="usage-meter">
      <meter min={0} max={100} low={70} high={90} optimum={0} value={value ?? 0} aria-label={label} />
      <span className="nowrap">{value === null ? '—' : `${value}%`}</span>
    </span>
  );
}

/** Keeps the samples of the cluster's average use (one per metrics answer) of the chart's window. */
function useSamples(items: NodeUsage[] | undefined, updatedAt: number): UsageSample[] {
  const [samples, setSamples] = useState<UsageSample[]>([]);
  const [seen, setSeen] = useState(0);
  if (items && updatedAt !== seen) {
    setSeen(updatedAt);
    const sample = {
      time: updatedAt,
      cpu: averagePercent(items.map((item) => item.cpuPercent)),
      memory: averagePercent(items.map((item) => item.memoryPercent)),
    };
    setSamples((previous) => [...previous.filter((kept) => kept.time > updatedAt - usageWindowMs), sample]);
  }
  return samples;
}

/** Nodes with CPU and memory use against allocatable (metrics.k8s.io), and the cluster's use over time. */
export function NodesCard(): ReactNode {
  const t = useT();
  const metrics = useApiQuery('/api/metrics/node', { refetchInterval: 15_000 });
  const live = useSamples(metrics.data?.items, metrics.dataUpdatedAt);
  // With history (Prometheus, or the replica's memory) the chart starts with the last 15 minutes, not empty.
  const seed = useHistorySeed(metrics.data?.items);
  const samples = useMemo(() => {
    const first = live[0]?.time ?? Number.POSITIVE_INFINITY;
    const newest = live.at(-1)?.time;
    const cutoff = newest === undefined ? Number.NEGATIVE_INFINITY : newest - usageWindowMs;
    return [...seed.filter((sample) => sample.time < first && sample.time > cutoff), ...live];
  }, [seed, live]);
  const labels = useMemo(() => ({ cpu: t('overview.cpu'), memory: t('overview.memory'), time: t('overview.time') }), [t]);
  return (
    <Card title={t('overview.usage')} id="overview-usage" wide>
      <ErrorNotice error={metrics.error} compact />
      {samples.length > 0 && <UsageChart samples={samples} labels={labels} title={t('overview.usageChart')} />}
      {metrics.data && (
        <table className="data-table compact usage-table">
          <caption className="visually-hidden">{t('overview.usage')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('overview.node')}</th>
              <th scope="col">{t('overview.cpu')}</th>
              <th scope="col">{t('overview.memory')}</th>
            </tr>
          </thead>
          <tbody>
            {metrics.data.items.map((node) => (
              <tr key={node.name}>
                <td>
                  <Link to={objectPath('nodes', node.name)}>{node.name}</Link>
                </td>
                <td>
                  <Meter value={node.cpuPercent} label={t('overview.cpuOf', { node: node.name })} />
                  <span className="muted small"> {t('overview.ofAllocatable', { used: node.cpu, total: node.allocatableCpu ?? '?' })}</span>
                </td>
                <td>
                  <Meter value={node.memoryPercent} label={t('overview.memoryOf', { node: node.name })} />
                  <span className="muted small"> {t('overview.ofAllocatable', { used: node.memory, total: node.allocatableMemory ?? '?' })}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
