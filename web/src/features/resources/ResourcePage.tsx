import { useMemo, useState, type ReactNode } from 'react';
import type { ListResponse } from '../../api/list';
import type { ResourceItem } from '../../api/types';
import { useApi } from '../../app/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { formatClock } from '../../shared/time';
import type { Polled } from '../../shared/use-polling';
import { useLiveList } from '../../shared/use-live-list';
import { columnsOf, matchesFilter } from './columns';
import { kindLabel } from './kinds';
import { ResourceDrawer } from './ResourceDrawer';
import { ResourceTable } from './ResourceTable';
import type { ResourceTarget } from './target';

const noItems: ResourceItem[] = [];

interface ResourcePageProps {
  resource: string;
  namespace: string;
  selected: ResourceTarget | null;
  onSelect: (target: ResourceTarget | null) => void;
}

interface ListToolbarProps {
  title: string;
  filter: string;
  onFilter: (filter: string) => void;
  list: Polled<ListResponse<ResourceItem>>;
  shown: number;
}

/** Title, filter box, "shown of total", and the refresh status. */
function ListToolbar({ title, filter, onFilter, list, shown }: ListToolbarProps): ReactNode {
  const t = useT();
  return (
    <div className="toolbar">
      <h1 id="list-title">{title}</h1>
      <label className="filter">
        <span className="visually-hidden">{t('table.filter')}</span>
        <input type="search" value={filter} placeholder={t('table.filterPlaceholder')} onChange={(event) => onFilter(event.target.value)} />
      </label>
      <span className="muted" aria-live="polite">
        {list.data ? t('table.count', { shown, total: list.data.items.length }) : ''}
      </span>
      <span className="toolbar-status">
        {list.refreshing && <Spinner label={t('table.refreshing')} />}
        {list.updatedAt && <span className="muted small">{t('table.updated', { time: formatClock(list.updatedAt) })}</span>}
      </span>
    </div>
  );
}

/** Stale data, errors, loading and empty notices of the list. */
function ListNotices({ list, title }: { list: Polled<ListResponse<ResourceItem>>; title: string }): ReactNode {
  const t = useT();
  return (
    <>
      {list.error !== undefined && list.data && <p className="notice notice-warn compact">{t('table.stale', { time: formatClock(list.updatedAt) })}</p>}
      <ErrorNotice error={list.error} compact={!!list.data} />
      {list.loading && !list.data && <p className="muted pad">{t('table.loading')}</p>}
      {list.data && list.data.items.length === 0 && <p className="muted pad">{t('table.empty', { kind: title })}</p>}
    </>
  );
}

/** One kind's list: filter box, live rows pushed by the server (stale data stays while it reconnects), detail drawer. */
export function ResourcePage({ resource, namespace, selected, onSelect }: ResourcePageProps): ReactNode {
  const client = useApi();
  const t = useT();
  const [filter, setFilter] = useState('');
  // Live: the server pushes every change of the list (no polling); rows change in place.
  const list = useLiveList(client, resource, namespace);
  const items = list.data?.items ?? noItems;
  const columns = useMemo(() => columnsOf(items), [items]);
  const shown = useMemo(() => items.filter((item) => matchesFilter(item, columns, filter)), [items, columns, filter]);
  const title = kindLabel(resource, t);
  const onDeleted = (): void => {
    onSelect(null);
    list.reload();
  };

  return (
    <div className="resource-page">
      <section className="list-pane" aria-labelledby="list-title">
        <ListToolbar title={title} filter={filter} onFilter={setFilter} list={list} shown={shown.length} />
        <ListNotices list={list} title={title} />
        {shown.length > 0 && <ResourceTable resource={resource} columns={columns} items={shown} selected={selected} onOpen={onSelect} caption={title} />}
      </section>
      {selected && selected.resource === resource && (
        <ResourceDrawer key={`${selected.namespace}/${selected.name}`} target={selected} onClose={() => onSelect(null)} onDeleted={onDeleted} />
      )}
    </div>
  );
}
