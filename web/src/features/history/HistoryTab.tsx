import { useState, type ReactNode } from 'react';
import { useT, type MessageKey } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import type { ResourceTarget } from '../../shared/resource-target';
import { useApiQuery } from '../../shared/use-api-query';
import { HistoryChart } from './HistoryChart';
import { historyQuery, historyRanges, type HistoryRange } from './history-model';

/** Usage history of a pod, workload, node or PVC (GET /api/metrics/history) with a range picker. */
export function HistoryTab({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const [range, setRange] = useState<HistoryRange>('1h');
  const query = historyQuery(target, range);
  const history = useApiQuery('/api/metrics/history', { query: query ?? { kind: 'pod', name: '' }, enabled: query !== undefined });
  return (
    <div className="history-tab">
      <label className="history-range">
        {t('history.range')}{' '}
        <select value={range} onChange={(event) => setRange(event.target.value as HistoryRange)} data-testid="history-range">
          {historyRanges.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      <ErrorNotice error={history.error} />
      {history.isPending && query && <p className="muted">{t('tab.loading')}</p>}
      {history.data && (
        <p className="muted small" data-testid="history-source">
          {t(history.data.source === 'memory' ? 'history.sourceMemory' : 'history.sourcePrometheus')}
        </p>
      )}
      {history.data?.series.map((series, index) => (
        <HistoryChart key={series.name} series={series} index={index} title={t(`history.series.${series.name}` as MessageKey)} />
      ))}
    </div>
  );
}
