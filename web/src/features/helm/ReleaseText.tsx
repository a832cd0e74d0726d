import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { withQuery } from '@pilothouse/wire/wire-client';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';

/** The release's values (JSON, which is YAML) or its rendered manifest (YAML, Secrets masked by the service). */
export function ReleaseText({ name, namespace, kind }: { name: string; namespace: string; kind: 'values' | 'manifest' }): ReactNode {
  const t = useT();
  const client = useApi();
  const path = `/api/helm/releases/${encodeURIComponent(name)}/${kind}`;
  const text = useQuery({
    queryKey: [withQuery(path, { namespace })],
    queryFn: async ({ signal }) =>
      kind === 'manifest'
        ? client.text(path, { query: { namespace }, signal })
        : JSON.stringify(
            (await client.call('GET', '/api/helm/releases/{name}/values', { path: { name }, query: { namespace }, signal })).values ?? {},
            null,
            2,
          ),
  });
  return (
    <>
      <ErrorNotice error={text.error} />
      {text.data !== undefined && (
        <pre className="code" tabIndex={0} aria-label={t(kind === 'values' ? 'helm.tab.values' : 'helm.tab.manifest')}>
          {text.data || t('helm.nothing')}
        </pre>
      )}
    </>
  );
}
