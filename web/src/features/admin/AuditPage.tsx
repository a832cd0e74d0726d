import { useState, type FormEvent, type ReactNode } from 'react';
import { SelectField } from '../../shared/SelectField';
import { useApi } from '../../shared/api-context';
import type { AuditEntry } from '@pilothouse/wire/types';
import { useT, type Translate } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { formatTime } from '../../shared/time';
import { useApiQuery } from '../../shared/use-api-query';
import { allAuditRows, auditCsv, auditQuery, noFilters, saveFile, type AuditAction, type AuditFilters } from './audit-export';

const pageSize = 50;
const actions: AuditAction[] = ['login', 'logout', 'query', 'approve', 'reject', 'execute', 'access_request', 'lock'];

function detailsText(details: Record<string, unknown>): string {
  if (typeof details.command === 'string') return details.command;
  const text = JSON.stringify(details);
  return text === '{}' ? '' : text;
}

/** The audit table's columns; no sorting, since the server pages the entries newest first. */
function auditColumns(t: Translate): Column<AuditEntry>[] {
  return [
    { key: 'time', header: t('audit.time'), cell: (entry) => formatTime(entry.timestamp), className: 'nowrap' },
    { key: 'user', header: t('audit.user'), cell: (entry) => entry.user },
    { key: 'action', header: t('audit.action'), cell: (entry) => entry.action },
    { key: 'resource', header: t('audit.resource'), cell: (entry) => entry.resource, className: 'mono' },
    {
      key: 'decision',
      header: t('audit.decision'),
      cell: (entry) => entry.decision,
      className: (entry) => (entry.decision === 'deny' ? 'tone-bad' : 'tone-good'),
    },
    { key: 'outcome', header: t('audit.outcome'), cell: (entry) => entry.outcome ?? '' },
    { key: 'details', header: t('audit.details'), cell: (entry) => detailsText(entry.details), className: 'mono details-cell' },
  ];
}

type TextFilter = Exclude<keyof AuditFilters, 'action'>;

/** One filter input of the form. */
function FilterField({ label, type, value, onChange }: { label: string; type: string; value: string; onChange: (value: string) => void }): ReactNode {
  return (
    <label className="inline-field">
      <span>{label}</span>
      <input type={type} value={value} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}

/** Export buttons: every row the applied filters match, as CSV or JSON. */
function AuditExport({ filters }: { filters: AuditFilters }): ReactNode {
  const client = useApi();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const save = async (format: 'csv' | 'json'): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const rows = await allAuditRows(client, filters);
      const text = format === 'csv' ? auditCsv(rows) : `${JSON.stringify(rows, null, 2)}\n`;
      saveFile(`pilothouse-audit.${format}`, text, format === 'csv' ? 'text/csv' : 'application/json');
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="toolbar-status">
      <button type="button" disabled={busy} onClick={() => void save('csv')}>
        {t('audit.exportCsv')}
      </button>
      <button type="button" disabled={busy} onClick={() => void save('json')}>
        {t('audit.exportJson')}
      </button>
      <ErrorNotice error={error} />
    </div>
  );
}

/** `GET /api/audit` with action, user, from, to and cluster filters, paging and export (admins). */
export function AuditPage(): ReactNode {
  const t = useT();
  const [draft, setDraft] = useState<AuditFilters>(noFilters);
  const [filters, setFilters] = useState<AuditFilters>(noFilters);
  const [offset, setOffset] = useState(0);
  const audit = useApiQuery('/api/audit', { query: { limit: pageSize, offset, ...auditQuery(filters) } });
  const total = audit.data?.total ?? 0;
  const items = audit.data?.items ?? [];
  const field = (key: TextFilter, type: string, label: string): ReactNode => (
    <FilterField label={label} type={type} value={draft[key]} onChange={(value) => setDraft({ ...draft, [key]: value })} />
  );

  const apply = (event: FormEvent): void => {
    event.preventDefault();
    setOffset(0);
    setFilters(draft);
  };

  return (
    <section className="page" aria-labelledby="audit-title">
      <div className="toolbar">
        <h1 id="audit-title">{t('audit.title')}</h1>
        {audit.isFetching && <Spinner label={t('common.loading')} />}
        <AuditExport filters={filters} />
      </div>
      <form className="filters" onSubmit={apply}>
        <SelectField
          className="inline-field"
          label={t('audit.action')}
          any={t('audit.anyAction')}
          value={draft.action}
          options={actions}
          onValue={(action) => setDraft({ ...draft, action })}
        />
        {field('user', 'text', t('audit.user'))}
        {field('from', 'datetime-local', t('audit.from'))}
        {field('to', 'datetime-local', t('audit.to'))}
        {field('cluster', 'text', t('audit.cluster'))}
        <button type="submit" className="primary">
          {t('audit.apply')}
        </button>
      </form>
      <ErrorNotice error={audit.error} />
      {audit.data && items.length === 0 && <p className="muted pad">{t('audit.empty')}</p>}
      {items.length > 0 && <DataTable columns={auditColumns(t)} rows={items} rowKey={(entry) => String(entry.id)} />}
      <div className="pager">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - pageSize))}>
          {t('audit.previous')}
        </button>
        <span className="muted">{total > 0 ? t('audit.page', { from: offset + 1, to: Math.min(offset + pageSize, total), total }) : ''}</span>
        <button type="button" disabled={offset + pageSize >= total} onClick={() => setOffset(offset + pageSize)}>
          {t('audit.next')}
        </button>
      </div>
    </section>
  );
}
