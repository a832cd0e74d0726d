import { useCallback, useState, type ReactNode } from 'react';
import { useT, type MessageKey } from '../../i18n';
import { useApi } from '../../shared/api-context';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { targetKey, type ResourceTarget } from '../../shared/resource-target';
import { useLoad } from '../../shared/use-load';
import { HistoryChart } from './HistoryChart';
import { historyPath, historyRanges, type HistoryAnswer, type HistoryRange } from './history-model';

/** Usage history of a pod, workload, node or PVC (GET /api/metrics/history) with a range picker. */
export function HistoryTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const [range, setRange] = useState<HistoryRange>('1h');
  const path = historyPath(target, range);
  const load = useCallback((signal: AbortSignal) => client.json<HistoryAnswer>('GET', path ?? '', { signal }), [client, path]);
  const history = useLoad(`${targetKey(target)}/usage/${range}`, load);
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
      {history.loading && <p className="muted">{t('tab.loading')}</p>}
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
