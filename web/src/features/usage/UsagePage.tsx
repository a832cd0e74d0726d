import { useState, type FormEvent, type ReactNode } from 'react';
import type { UsageGroup } from '@pilothouse/wire/types';
import { useT, type Translate } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { useApiQuery } from '../../shared/use-api-query';

const count = (value: number): string => value.toLocaleString();
const money = (value: number): string => value.toFixed(4);

function usageColumns(t: Translate): Column<UsageGroup>[] {
  return [
    { key: 'day', header: t('usage.day'), cell: (group) => group.day, className: 'nowrap' },
    { key: 'user', header: t('usage.user'), cell: (group) => group.username },
    { key: 'cluster', header: t('usage.cluster'), cell: (group) => group.cluster ?? '' },
    { key: 'model', header: t('usage.model'), cell: (group) => `${group.provider}/${group.model}`, className: 'mono' },
    { key: 'calls', header: t('usage.calls'), cell: (group) => count(group.calls) },
    { key: 'input', header: t('usage.input'), cell: (group) => count(group.inputTokens) },
    { key: 'cached', header: t('usage.cached'), cell: (group) => count(group.cachedInputTokens) },
    { key: 'output', header: t('usage.output'), cell: (group) => count(group.outputTokens) },
    { key: 'cost', header: t('usage.cost'), cell: (group) => money(group.cost) },
  ];
}

const rowKey = (group: UsageGroup): string => [group.day, group.username, group.cluster ?? '', group.provider, group.model].join('|');

/** `GET /api/usage`: tokens and cost by day, user, cluster and model (admins: everyone; others: their own). */
export function UsagePage(): ReactNode {
  const t = useT();
  const [draft, setDraft] = useState({ from: '', to: '' });
  const [filters, setFilters] = useState({ from: '', to: '' });
  const usage = useApiQuery('/api/usage', { query: filters });
  const items = usage.data?.items ?? [];
  const totals = usage.data?.totals;
  const apply = (event: FormEvent): void => {
    event.preventDefault();
    setFilters(draft);
  };
  return (
    <section className="page" aria-labelledby="usage-title">
      <div className="toolbar">
        <h1 id="usage-title">{t('usage.title')}</h1>
        {usage.isPending && <Spinner label={t('common.loading')} />}
      </div>
      <form className="filters" onSubmit={apply}>
        <label className="inline-field">
          <span>{t('usage.from')}</span>
          <input type="date" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
        </label>
        <label className="inline-field">
          <span>{t('usage.to')}</span>
          <input type="date" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
        </label>
        <button type="submit" className="primary">
          {t('usage.apply')}
        </button>
      </form>
      <ErrorNotice error={usage.error} />
      {totals && (
        <p className="pad" data-testid="usage-totals">
          {t('usage.totals', {
            calls: count(totals.calls),
            input: count(totals.inputTokens),
            cached: count(totals.cachedInputTokens),
            output: count(totals.outputTokens),
            cost: money(totals.cost),
          })}
        </p>
      )}
      {usage.data && items.length === 0 && <p className="muted pad">{t('usage.empty')}</p>}
      {items.length > 0 && <DataTable columns={usageColumns(t)} rows={items} rowKey={rowKey} />}
    </section>
  );
}
