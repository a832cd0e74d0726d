import type { ReactNode } from 'react';
import { SelectField } from '../../shared/SelectField';
import { useT } from '../../i18n';
import { useApiQuery } from '../../shared/use-api-query';

/** Namespace picker from `GET /api/k8s/namespaces` (refreshed every 30 s); '' means all namespaces. */
export function NamespaceSelect({ value, onChange }: { value: string; onChange: (namespace: string) => void }): ReactNode {
  const t = useT();
  const namespaces = useApiQuery('/api/k8s/{resource}', { path: { resource: 'namespaces' }, refetchInterval: 30_000, keepPrevious: true });
  const names = (namespaces.data?.items ?? []).map((item) => item.name);
  if (value && !names.includes(value)) names.unshift(value);
  return <SelectField className="namespace-select" label={t('namespace.label')} any={t('namespace.all')} value={value} options={names} onValue={onChange} />;
}
