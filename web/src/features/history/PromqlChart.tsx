import { useEffect, useRef, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useT } from '../../i18n';
import { useApi } from '../../shared/api-context';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { alignedSeries, promqlCommand } from './history-model';

const colours = ['#0d9488', '#6366f1', '#d97706', '#db2777', '#2563eb'];
const maxLines = 5;

/**
 * A promql tool call drawn as a chart in the chat: the call's query over its range (an hour for a value now), asked
 * again as the signed-in user (POST /api/prometheus/query: the same view of their namespaces), up to five series.
 */
export function PromqlChart({ command, cluster }: { command: string; cluster?: string }): ReactNode {
  const client = useApi();
  const t = useT();
  const container = useRef<HTMLDivElement>(null);
  const parsed = promqlCommand(command);
  // A query, not a change: cached per cluster and command like any read (TanStack Query), asked once per card.
  const answer = useQuery({
    queryKey: ['promql-chart', cluster ?? '', command],
    enabled: !!parsed,
    staleTime: Infinity,
    queryFn: ({ signal }) => {
      const end = Math.floor(Date.now() / 1000);
      const seconds = parsed?.rangeSeconds ?? 3600;
      const body = { query: parsed?.query ?? '', start: end - seconds, end, step: Math.max(15, Math.ceil(seconds / 120)) };
      return client.forCluster(cluster).call('POST', '/api/prometheus/query', { body, signal });
    },
  });
  useEffect(() => {
    const element = container.current;
    if (!element || !answer.data) return;
    const { labels, times, columns } = alignedSeries(answer.data.result, maxLines);
    if (times.length === 0) return;
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 240),
      height: 160,
      scales: { x: { time: true } },
      series: [{}, ...labels.map((label, index) => ({ label: label || t('history.series.value'), stroke: colours[index % colours.length], width: 2 }))],
    };
    const chart = new uPlot(options, [times, ...columns], element);
    return () => chart.destroy();
  }, [answer.data, t]);
  if (!parsed) return null;
  return (
    <figure className="promql-chart" data-testid="promql-chart">
      <ErrorNotice error={answer.error} />
      <div ref={container} role="img" aria-label={`${t('history.chartOf')} ${parsed.query}`} />
    </figure>
  );
}
