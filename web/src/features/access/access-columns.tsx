import type { ReactNode } from 'react';
import type { AccessPhase, AccessRequest } from '@pilothouse/wire/types';
import { useT, type MessageKey, type Translate } from '../../i18n';
import type { Column } from '../../shared/DataTable';
import { clusterColumn } from '../../shared/cluster-column';
import { formatTime } from '../../shared/time';

const phaseClass: Record<AccessPhase, string> = { Pending: 'badge-write', Approved: 'badge-read', Denied: 'badge-dangerous', Expired: 'badge-unknown' };

function PhaseBadge({ request }: { request: AccessRequest }): ReactNode {
  const t = useT();
  const known = request.phase in phaseClass ? request.phase : 'Expired';
  return (
    <>
      <span className={`badge ${phaseClass[known]}`}>{t(`access.phase.${known}` as MessageKey)}</span>
      {request.phase === 'Approved' && request.expiresAt && <div className="small muted">{t('access.expires', { time: formatTime(request.expiresAt) })}</div>}
      {request.reviewer && <div className="small muted">{t('access.reviewedBy', { reviewer: request.reviewer })}</div>}
    </>
  );
}

const scopeText = (values: string[], all: string): string => (values.length === 0 || values.includes('*') ? all : values.join(', '));

/**
 * The access requests table's columns (the requester only for admins, who see everyone's; the cluster a grant holds
 * on); `actions` renders the last cell.
 */
export function accessColumns(t: Translate, admin: boolean, actions: (request: AccessRequest) => ReactNode): Column<AccessRequest>[] {
  const requester: Column<AccessRequest> = {
    key: 'requester',
    header: t('access.requester'),
    cell: (request) => request.requester,
    sortValue: (request) => request.requester,
  };
  return [
    ...(admin ? [requester] : []),
    clusterColumn<AccessRequest>(t),
    {
      key: 'namespace',
      header: t('access.namespace'),
      cell: (request) => scopeText(request.namespaces, t('access.all')),
      sortValue: (request) => scopeText(request.namespaces, ''),
    },
    {
      key: 'resource',
      header: t('access.resource'),
      cell: (request) => scopeText(request.resources, t('access.all')),
      sortValue: (request) => scopeText(request.resources, ''),
    },
    { key: 'ttl', header: t('access.ttl'), cell: (request) => request.ttl },
    {
      key: 'reason',
      header: t('access.reason'),
      cell: (request) => (
        <>
          {request.reason ?? ''}
          {request.message && <div className="small muted">{request.message}</div>}
        </>
      ),
    },
    { key: 'phase', header: t('access.phase'), cell: (request) => <PhaseBadge request={request} />, sortValue: (request) => request.phase },
    {
      key: 'created',
      header: t('access.created'),
      cell: (request) => formatTime(request.createdAt),
      className: 'nowrap',
      sortValue: (request) => request.createdAt,
    },
    { key: 'actions', header: t('access.actions'), cell: actions, className: 'nowrap' },
  ];
}
