import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { objectPath, targetKey, type ResourceTarget } from '../../shared/resource-target';

/** YAML or describe text of an object. */
export function TextTab({ target, suffix }: { target: ResourceTarget; suffix: '/yaml' | '/describe' }): ReactNode {
  const client = useApi();
  const t = useT();
  const text = useQuery({
    queryKey: ['text', targetKey(target), suffix],
    queryFn: ({ signal }) => client.text(objectPath(target, suffix), { query: { namespace: target.namespace }, signal }),
  });
  return (
    <div className="text-tab">
      <div className="tab-actions">
        <button type="button" onClick={() => void text.refetch()} disabled={text.isFetching}>
          {t('tab.reload')}
        </button>
      </div>
      <ErrorNotice error={text.error} />
      {text.isFetching && text.data === undefined && <p className="muted">{t('tab.loading')}</p>}
      {text.data !== undefined && (
        <pre className="code" tabIndex={0} aria-label={suffix === '/yaml' ? 'YAML' : t('tab.describe')}>
          {text.data}
        </pre>
      )}
    </div>
  );
}
