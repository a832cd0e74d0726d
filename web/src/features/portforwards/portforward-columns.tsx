import type { ReactNode } from 'react';
import type { Translate } from '../../i18n';
import type { Column } from '../../shared/DataTable';
import { clusterColumn } from '../../shared/cluster-column';
import { addressOf, targetOf, type PortForward } from './port-forward-types';

const statusTone: Record<string, string> = { active: 'tone-good', failed: 'tone-bad', Pending: 'tone-warn' };

/** The local address as a link that opens it (http; the forward carries any TCP, the link is for the common case). */
export function AddressLink({ address }: { address: string }): ReactNode {
  return (
    <a className="mono" href={`http://${address}/`} target="_blank" rel="noreferrer">
      {address}
    </a>
  );
}

/** What a forward goes to: its Service (with the pod it reaches in small print), else its pod. */
function TargetCell({ forward, t }: { forward: PortForward; t: Translate }): ReactNode {
  if (!forward.service) return targetOf(forward);
  return (
    <>
      {targetOf(forward)}
      <div className="small muted">{t('portforward.viaPod', { pod: forward.pod })}</div>
    </>
  );
}

/** The port forwards table's columns (the cluster the tunnel opens to first); `actions` renders the last cell. */
export function portForwardColumns(t: Translate, actions: (forward: PortForward) => ReactNode): Column<PortForward>[] {
  return [
    clusterColumn<PortForward>(t),
    {
      key: 'target',
      header: t('portforward.target'),
      cell: (row) => <TargetCell forward={row} t={t} />,
      sortValue: (row) => targetOf(row),
    },
    {
      key: 'address',
      header: t('portforward.address'),
      cell: (row) => {
        const address = addressOf(row);
        return address ? <AddressLink address={address} /> : '—';
      },
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
