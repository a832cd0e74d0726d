import type { ReactNode } from 'react';
import type { Translate } from '../../i18n';
import type { Column } from '../../shared/DataTable';
import { clusterColumn } from '../../shared/cluster-column';
import type { PortForward } from './port-forward-types';

const statusTone: Record<string, string> = { active: 'tone-good', failed: 'tone-bad', Pending: 'tone-warn' };

/** The port forwards table's columns (the cluster the tunnel opens to first); `actions` renders the last cell. */
export function portForwardColumns(t: Translate, actions: (forward: PortForward) => ReactNode): Column<PortForward>[] {
  return [
    clusterColumn<PortForward>(t),
    {
      key: 'target',
      header: t('portforward.target'),
      cell: (row) => `${row.namespace}/${row.pod}:${row.podPort}`,
      sortValue: (row) => `${row.namespace}/${row.pod}`,
    },
    {
      key: 'address',
      header: t('portforward.address'),
      cell: (row) => <span className="mono">{row.address ?? (row.localPort ? `127.0.0.1:${row.localPort}` : '—')}</span>,
    },
    {
      key: 'status',
      header: t('portforward.status'),
      cell: (row) => <span className={statusTone[row.status]}>{row.status}</span>,
      sortValue: (row) => row.status,
    },
    { key: 'message', header: t('portforward.message'), cell: (row) => <span className="small">{row.message ?? ''}</span> },
    { key: 'requester', header: t('portforward.requester'), cell: (row) => row.requester ?? '' },
    { key: 'stop', header: t('portforward.actions'), cell: actions },
  ];
}
