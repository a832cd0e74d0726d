import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { DataTable } from '../../shared/DataTable';
import { useAction } from '../../shared/use-action';
import { ActionNotices } from '../layout/ActionNotices';
import { useApiQuery } from '../../shared/use-api-query';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { StartPortForward } from './StartPortForward';
import { addressOf, targetOf, type PortForward } from './port-forward-types';
import { portForwardColumns } from './portforward-columns';
import '../layout/pages.css';

const listPath = '/api/portforward';

/** Pick a pod or a service of the namespace, then its port. */
function StartForm({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const [kind, setKind] = useState<'pods' | 'services'>('pods');
  const [name, setName] = useState('');
  const objects = useApiQuery('/api/k8s/{resource}', { path: { resource: kind }, query: { namespace, limit: 500 }, enabled: !!namespace });
  if (!namespace) return <p className="muted">{t('portforward.pickNamespace')}</p>;
  return (
    <div className="pf-start">
      <div className="form-row">
        <label className="field">
          <span>{t('portforward.kind')}</span>
          <select
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as 'pods' | 'services');
              setName('');
            }}
          >
            <option value="pods">{t('portforward.kindPod')}</option>
            <option value="services">{t('portforward.kindService')}</option>
          </select>
        </label>
        <label className="field">
          <span>{t('portforward.object')}</span>
          <select value={name} onChange={(event) => setName(event.target.value)}>
            <option value="">{t('portforward.choose')}</option>
            {(objects.data?.items ?? []).map((item) => (
              <option key={item.name} value={item.name}>
                {item.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {name && <StartPortForward key={`${kind}/${name}`} kind={kind} namespace={namespace} name={name} />}
    </div>
  );
}

/** The confirmation of Stop: it names what the forward goes to and the local address that closes. */
function StopDialog(props: { forward: PortForward; busy: boolean; onConfirm: () => void; onCancel: () => void }): ReactNode {
  const t = useT();
  const target = targetOf(props.forward);
  return (
    <ConfirmDialog
      title={t('portforward.stopTitle', { target })}
      confirmLabel={t('portforward.stop')}
      cancelLabel={t('portforward.cancel')}
      danger
      busy={props.busy}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      <p>{t('portforward.stopText', { address: addressOf(props.forward) ?? '—' })}</p>
    </ConfirmDialog>
  );
}

/** Port forwards: the caller's (all for admins) with status and local address, stop (after a confirmation); start one from a pod or service. */
export function PortForwardsPage({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const client = useApi();
  const queries = useQueryClient();
  const forwards = useApiQuery(listPath, { refetchInterval: 5_000 });
  const [stopping, setStopping] = useState<PortForward>();
  const action = useAction(() => void queries.invalidateQueries({ queryKey: [listPath] }));
  const stop = (forward: PortForward): Promise<void> =>
    action.act(async () => {
      await client.call('DELETE', '/api/portforward/{id}', { path: { id: forward.id } });
      setStopping(undefined);
      return t('portforward.stopped', { id: forward.id });
    });
  // Starting a forward is a write (viewers are refused by the service).
  const canStart = client.current?.role !== 'viewer';
  const columns = portForwardColumns(t, (row) => (
    <button
      type="button"
      className="small-button danger"
      disabled={action.busy}
      onClick={() => setStopping(row)}
      aria-label={t('portforward.stopNamed', { target: targetOf(row) })}
    >
      {t('portforward.stop')}
    </button>
  ));
  return (
    <section className="page" aria-labelledby="pf-title">
      <div className="toolbar">
        <h1 id="pf-title">{t('portforward.title')}</h1>
      </div>
      {canStart && (
        <section className="card page-section" aria-labelledby="pf-start-title">
          <h2 id="pf-start-title">{t('portforward.startTitle')}</h2>
          <StartForm namespace={namespace} />
        </section>
      )}
      <ActionNotices action={action} error={forwards.error} />
      {forwards.data && forwards.data.items.length === 0 && <p className="muted pad">{t('portforward.empty')}</p>}
      {forwards.data && forwards.data.items.length > 0 && (
        <DataTable columns={columns} rows={forwards.data.items} rowKey={(row) => row.id} caption={t('portforward.title')} />
      )}
      {stopping && <StopDialog forward={stopping} busy={action.busy} onConfirm={() => void stop(stopping)} onCancel={() => setStopping(undefined)} />}
    </section>
  );
}
