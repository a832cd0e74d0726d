import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { ApiClient } from '../../api/client';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useApiQuery } from '../../shared/use-api-query';
import { AddressLink } from './portforward-columns';
import { podPorts, selectorOf, servicePorts, type OfferedPort } from './port-forward-types';

export interface StartPortForwardProps {
  /** `pods` or `services`. */
  kind: string;
  namespace: string;
  name: string;
  /** The ports to offer; read from the object when absent. */
  ports?: OfferedPort[];
}

interface Started {
  id: string;
  localPort: number;
  address?: string;
}

function portsOf(kind: string, object: Record<string, unknown> | undefined): OfferedPort[] {
  if (!object) return [];
  return kind === 'services' ? servicePorts(object) : podPorts(object);
}

/** The pod a forward goes to: the pod itself, or a running pod the service selects. */
async function targetPod(client: ApiClient, { kind, namespace, name }: StartPortForwardProps, object: Record<string, unknown> | undefined): Promise<string> {
  if (kind !== 'services') return name;
  const selector = selectorOf(object ?? {});
  const pods = selector
    ? await client.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' }, query: { namespace, labelSelector: selector } })
    : undefined;
  const pod = pods?.items.find((item) => item.status === 'Running') ?? pods?.items[0];
  if (!pod) throw new Error(`service ${name} selects no pod`);
  return pod.name;
}

/** The port to forward: a choice of the object's ports, or a number when it declares none. */
function PortPicker({ offered, value, onChange }: { offered: OfferedPort[]; value: string; onChange: (port: string) => void }): ReactNode {
  const t = useT();
  return (
    <label className="field">
      <span>{t('portforward.podPort')}</span>
      {offered.length > 0 ? (
        <select value={value} onChange={(event) => onChange(event.target.value)}>
          {offered.map((offer) => (
            <option key={`${offer.port}-${offer.name ?? ''}`} value={offer.port}>
              {offer.name ? `${offer.port} (${offer.name})` : offer.port}
            </option>
          ))}
        </select>
      ) : (
        <input type="number" min={1} max={65535} required value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </label>
  );
}

/** "Forwarding on <address>", the address a link to it. */
function StartedNotice({ address }: { address: string }): ReactNode {
  const t = useT();
  const [before, after = ''] = t('portforward.started', { address: '\u0000' }).split('\u0000');
  return (
    <p className="notice notice-ok" role="status">
      {before}
      <AddressLink address={address} />
      {after}
    </p>
  );
}

/** Start a port forward from a pod or service page: pick the port, optionally the local port. Embeddable anywhere. */
export function StartPortForward({ kind, namespace, name, ports }: StartPortForwardProps): ReactNode {
  const t = useT();
  const client = useApi();
  const queries = useQueryClient();
  const object = useApiQuery('/api/k8s/{resource}/{name}', { path: { resource: kind, name }, query: { namespace }, enabled: !ports });
  const offered = ports ?? portsOf(kind, object.data);
  const [port, setPort] = useState('');
  const [localPort, setLocalPort] = useState('0');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [started, setStarted] = useState<Started>();
  const chosen = port || String(offered[0]?.port ?? '');
  // The forwards list (the same query as the Port forwards page): the notice goes away once this forward is stopped, here or anywhere.
  const forwards = useApiQuery('/api/portforward', { enabled: !!started, refetchInterval: 5_000 });
  const open = !forwards.data || forwards.data.items.some((forward) => forward.id === started?.id);

  const start = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const pod = await targetPod(client, { kind, namespace, name }, object.data);
      const service = kind === 'services' ? { service: name } : {};
      const body = { namespace, pod, podPort: Number(chosen), localPort: Number(localPort) || 0, ...service };
      const answer = await client.call('POST', '/api/portforward', { body });
      // The list is read again first, so the notice below (shown while the forward is listed) appears at once.
      await queries.invalidateQueries({ queryKey: ['/api/portforward'] });
      setStarted(answer);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form-row start-forward" onSubmit={(event) => void start(event)} aria-label={t('portforward.startFor', { name })}>
      <PortPicker offered={offered} value={chosen} onChange={setPort} />
      <label className="field">
        <span>{t('portforward.localPort')}</span>
        <input type="number" min={0} max={65535} value={localPort} onChange={(event) => setLocalPort(event.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={busy || !chosen}>
        {t('portforward.start')}
      </button>
      {started && open && <StartedNotice address={started.address ?? `127.0.0.1:${started.localPort}`} />}
      <ErrorNotice error={error} compact />
    </form>
  );
}
