import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { useApiQuery } from '../../shared/use-api-query';

/** Namespace picker from `GET /api/k8s/namespaces` (refreshed every 30 s); '' means all namespaces. */
export function NamespaceSelect({ value, onChange }: { value: string; onChange: (namespace: string) => void }): ReactNode {
  const t = useT();
  const namespaces = useApiQuery('/api/k8s/{resource}', { path: { resource: 'namespaces' }, refetchInterval: 30_000, keepPrevious: true });
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
