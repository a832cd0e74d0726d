import type { ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { useLiveList } from '../../shared/use-live-list';
import type { ResourceItem } from '@pilothouse/wire/types';
import { eventObjectTarget, listLink, warningEvents } from './overview-model';
import { Link, objectRoutePath } from '../../shared/router';
import { Card, Stat } from './Stat';

const shown = 10;

/** The event's object as a link to its page (`namespace/kind/name`, as kubectl names it). */
function EventObject({ row }: { row: ResourceItem }): ReactNode {
  const label = `${row.namespace ? `${row.namespace}/` : ''}${String(row.object ?? '')}`;
  const target = eventObjectTarget(row);
  return target ? <Link to={objectRoutePath(target)}>{label}</Link> : label;
}

/** Recent Warning events, live. */
export function EventsCard({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const client = useApi();
  const events = useLiveList(client, 'events', namespace || undefined);
  const all = warningEvents(events.data?.items ?? [], Number.MAX_SAFE_INTEGER);
  const columns: Column<ResourceItem>[] = [
    { key: 'lastSeen', header: t('overview.eventSeen'), cell: (row) => String(row.lastSeen ?? row.age ?? '') },
    { key: 'object', header: t('overview.eventObject'), cell: (row) => <EventObject row={row} />, className: 'event-object' },
    { key: 'reason', header: t('overview.eventReason'), cell: (row) => String(row.reason ?? '') },
    { key: 'message', header: t('overview.eventMessage'), cell: (row) => String(row.message ?? '') },
  ];
  return (
    <Card title={t('overview.warnings')} id="overview-events" wide>
      <div className="stats">
        <Stat
          value={events.data ? all.length : '…'}
          label={t('overview.warningEvents')}
          to={listLink('events', 'Warning')}
          tone={all.length ? 'warn' : 'good'}
        />
      </div>
      {all.length > 0 && (
        <DataTable
          columns={columns}
          rows={all.slice(0, shown)}
          rowKey={(row) => `${row.namespace ?? ''}/${row.name}`}
          caption={t('overview.warnings')}
          compact
        />
      )}
      {events.data && all.length === 0 && <p className="muted">{t('overview.noWarnings')}</p>}
    </Card>
  );
}
