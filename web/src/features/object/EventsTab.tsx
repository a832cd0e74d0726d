import { useMemo, type ReactNode } from 'react';
import type { ResourceItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { DataTable } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useLiveList } from '../../shared/use-live-list';
import { columnsOf } from '../../shared/columns';
import { itemColumns, itemKey } from '../../shared/item-columns';
import type { ResourceTarget } from '../../shared/resource-target';
import { useObject } from './use-object';

const hidden = new Set(['namespace', 'object', 'name']);

/** The events about this object, live (the namespace's event list, kept to rows whose object is this one). */
export function EventsTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const object = useObject(target);
  const events = useLiveList(client, 'events', target.namespace);
  const about = `${(object.data?.kind ?? '').toLowerCase()}/${target.name}`;
  const items = useMemo(
    () => (events.data?.items ?? []).filter((item: ResourceItem) => String(item.object ?? '').toLowerCase() === about),
    [events.data, about],
  );
  const columns = columnsOf(items).filter((column) => !hidden.has(column));
  return (
    <div className="events-tab">
      <ErrorNotice error={events.error ?? object.error} />
      {events.loading && <p className="muted">{t('tab.loading')}</p>}
      {events.data && items.length === 0 && <p className="muted">{t('objects.noEvents')}</p>}
      {items.length > 0 && <DataTable columns={itemColumns(columns)} rows={items} rowKey={itemKey} caption={t('objects.tab.events')} compact />}
    </div>
  );
}
