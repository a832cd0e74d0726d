import { useState, type FormEvent, type ReactNode } from 'react';
import type { QueryOf } from '@pilothouse/wire/calls';
import type { AuditEntry } from '@pilothouse/wire/types';
import { useT, type Translate } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { formatTime } from '../../shared/time';
import { useApiQuery } from '../../shared/use-api-query';

const pageSize = 50;
type AuditAction = NonNullable<QueryOf<'GET', '/api/audit'>['action']>;
interface AuditFilters {
  action: AuditAction | '';
  user: string;
}
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

/** The query of `GET /api/audit` for the filters and the page (an empty filter asks for all). */
const auditQuery = (filters: AuditFilters, offset: number): QueryOf<'GET', '/api/audit'> => ({
  limit: pageSize,
  offset,
  action: filters.action || undefined,
  user: filters.user.trim(),
});

/** `GET /api/audit` with action/user filters and paging (admins). */
export function AuditPage(): ReactNode {
  const t = useT();
  const [draft, setDraft] = useState<AuditFilters>({ action: '', user: '' });
  const [filters, setFilters] = useState<AuditFilters>({ action: '', user: '' });
  const [offset, setOffset] = useState(0);
  const audit = useApiQuery('/api/audit', { query: auditQuery(filters, offset) });
  const total = audit.data?.total ?? 0;
  const items = audit.data?.items ?? [];

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
      </div>
      <form className="filters" onSubmit={apply}>
        <label className="inline-field">
          <span>{t('audit.action')}</span>
          <select value={draft.action} onChange={(event) => setDraft({ ...draft, action: event.target.value as AuditAction | '' })}>
            <option value="">{t('audit.anyAction')}</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('audit.user')}</span>
          <input value={draft.user} onChange={(event) => setDraft({ ...draft, user: event.target.value })} />
        </label>
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
