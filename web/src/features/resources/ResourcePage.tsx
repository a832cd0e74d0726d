import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import type { ResourceItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { formatClock } from '../../shared/time';
import { useLiveList, type LiveList } from '../../shared/use-live-list';
import { columnsOf, matchesFilter } from '../../shared/columns';
import { kindLabel } from './kinds';
import { ResourceDrawer } from './ResourceDrawer';
import { ResourceTable } from './ResourceTable';
import { ListToolbar } from './ListToolbar';
import { useUsage, withUsage } from './use-usage';
import type { ResourceTarget } from '../../shared/resource-target';
import { ApiError } from '@pilothouse/wire/wire-client';
import { NotFound } from '../../shared/NotFound';
import { pagePath } from '../../shared/page-routes';

const noItems: ResourceItem[] = [];
// The editor (CodeMirror) is its own chunk, loaded when first opened.
const CreateDialog = lazy(() => import('../editor/CreateDialog').then((module) => ({ default: module.CreateDialog })));

interface ResourcePageProps {
  resource: string;
  namespace: string;
  selected: ResourceTarget | null;
  onSelect: (target: ResourceTarget | null) => void;
}

function searchParameter(name: string): string {
  return new URLSearchParams(window.location.search).get(name) ?? '';
}

/** Stale data, errors, loading and empty notices of the list. */
function ListNotices({ list, title }: { list: LiveList; title: string }): ReactNode {
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

/** The list of a resource type the cluster does not serve (the API answered 404): nothing to list, nothing to ask again. */
function isUnknownKind(list: LiveList): boolean {
  return list.error instanceof ApiError && list.error.status === 404 && !list.data;
}

function UnknownKind({ resource, error }: { resource: string; error: unknown }): ReactNode {
  const t = useT();
  return (
    <NotFound
      title={t('notFound.kindTitle', { kind: resource })}
      detail={error instanceof Error ? error.message : ''}
      back={{ to: pagePath({ page: 'overview' }), label: t('notFound.toOverview') }}
    />
  );
}

/** One kind's list: filter box, live rows pushed by the server (stale data stays while it reconnects), detail drawer. */
export function ResourcePage({ resource, namespace, selected, onSelect }: ResourcePageProps): ReactNode {
  const client = useApi();
  const t = useT();
  // Links may open a list filtered: `/resources/pods?filter=Pending&labelSelector=app%3Dweb` (the overview's numbers).
  const [filter, setFilter] = useState(() => searchParameter('filter'));
  const [selector, setSelector] = useState(() => searchParameter('labelSelector'));
  const [creating, setCreating] = useState(false);
  // Live: the server pushes every change of the list (no polling); rows change in place.
  const list = useLiveList(client, resource, namespace, selector);
  const usage = useUsage(resource, namespace);
  const listed = list.data?.items ?? noItems;
  const items = useMemo(() => withUsage(listed, usage), [listed, usage]);
  const columns = useMemo(() => columnsOf(items), [items]);
  const shown = useMemo(() => items.filter((item) => matchesFilter(item, columns, filter)), [items, columns, filter]);
  const title = kindLabel(resource, t);
  const onDeleted = (): void => {
    onSelect(null);
    list.reload();
  };
  if (isUnknownKind(list)) return <UnknownKind resource={resource} error={list.error} />;

  return (
    <div className="resource-page">
      <section className="list-pane virtual" aria-labelledby="list-title">
        <ListToolbar
          title={title}
          filter={filter}
          onFilter={setFilter}
          selector={selector}
          onSelector={setSelector}
          list={list}
          shown={shown.length}
          actions={
            client.current?.role !== 'viewer' && (
              <button type="button" onClick={() => setCreating(true)}>
                {t('objects.create')}
              </button>
            )
          }
        />
        {creating && (
          <Suspense fallback={<p className="muted pad">{t('tab.loading')}</p>}>
            <CreateDialog resource={resource} namespace={namespace} onClose={() => setCreating(false)} />
          </Suspense>
        )}
        <ListNotices list={list} title={title} />
        {shown.length > 0 && <ResourceTable resource={resource} columns={columns} items={shown} selected={selected} onOpen={onSelect} caption={title} />}
      </section>
      {selected && selected.resource === resource && (
        <ResourceDrawer key={`${selected.namespace}/${selected.name}`} target={selected} onClose={() => onSelect(null)} onDeleted={onDeleted} />
      )}
    </div>
  );
}
