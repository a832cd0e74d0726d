import { useMemo, type ReactNode } from 'react';
import type { ResourceItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { DataTable } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useLiveList } from '../../shared/use-live-list';
import { columnsOf, sortValue } from '../../shared/columns';
import { itemColumns, itemKey } from '../../shared/item-columns';
import type { ResourceTarget } from '../../shared/resource-target';
import { useObject } from './use-object';

/** The columns people read an object's events by, in this order (no hashed event name, no repeated object). */
const eventColumns = ['type', 'reason', 'message', 'count', 'lastSeen'];

/** Newest first: by when each event was last seen. */
const newestFirst = (left: ResourceItem, right: ResourceItem): number =>
  Number(sortValue('lastSeen', left.lastSeen)) - Number(sortValue('lastSeen', right.lastSeen));

/** The events about this object, live (the namespace's event list, kept to rows whose object is this one). */
export function EventsTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const object = useObject(target);
  const events = useLiveList(client, 'events', target.namespace);
  const about = `${(object.data?.kind ?? '').toLowerCase()}/${target.name}`;
  const items = useMemo(
    () => (events.data?.items ?? []).filter((item: ResourceItem) => String(item.object ?? '').toLowerCase() === about).sort(newestFirst),
    [events.data, about],
  );
  const present = new Set(columnsOf(items));
  const columns = eventColumns.filter((column) => present.has(column));
  return (
    <div className="events-tab">
      <ErrorNotice error={events.error ?? object.error} />
      {events.loading && <p className="muted">{t('tab.loading')}</p>}
      {events.data && items.length === 0 && <p className="muted">{t('objects.noEvents')}</p>}
      {items.length > 0 && <DataTable columns={itemColumns(columns)} rows={items} rowKey={itemKey} caption={t('objects.tab.events')} compact />}
    </div>
  );
}
