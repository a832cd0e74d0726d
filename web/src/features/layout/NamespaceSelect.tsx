import { useCallback, type ReactNode } from 'react';
import type { ListResponse } from '../../api/list';
import type { ResourceItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { usePolling } from '../../shared/use-polling';

/** Namespace picker from `GET /api/k8s/namespaces` (refreshed every 30 s); '' means all namespaces. */
export function NamespaceSelect({ value, onChange }: { value: string; onChange: (namespace: string) => void }): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback((signal: AbortSignal) => client.json<ListResponse<ResourceItem>>('GET', '/api/k8s/namespaces', { signal }), [client]);
  const namespaces = usePolling('namespaces', load, 30_000);
  const names = (namespaces.data?.items ?? []).map((item) => item.name);
  if (value && !names.includes(value)) names.unshift(value);
  return (
    <label className="namespace-select">
      <span>{t('namespace.label')}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('namespace.all')}</option>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
