import { useCallback, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useLoad } from '../../shared/use-load';
import { objectPath, targetKey, type ResourceTarget } from '../../shared/resource-target';

/** YAML or describe text of an object. */
export function TextTab({ target, suffix }: { target: ResourceTarget; suffix: '/yaml' | '/describe' }): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback(
    (signal: AbortSignal) => client.text(objectPath(target, suffix), { query: { namespace: target.namespace }, signal }),
    [client, target, suffix],
  );
  const text = useLoad(`${targetKey(target)}${suffix}`, load);
  return (
    <div className="text-tab">
      <div className="tab-actions">
        <button type="button" onClick={text.reload} disabled={text.loading}>
          {t('tab.reload')}
        </button>
      </div>
      <ErrorNotice error={text.error} />
      {text.loading && text.data === undefined && <p className="muted">{t('tab.loading')}</p>}
      {text.data !== undefined && (
        <pre className="code" tabIndex={0} aria-label={suffix === '/yaml' ? 'YAML' : t('tab.describe')}>
          {text.data}
        </pre>
      )}
    </div>
  );
}
