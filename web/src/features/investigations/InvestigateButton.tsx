import { useState, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useCluster } from '../../shared/cluster-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { navigate } from '../../shared/router';
import type { ResourceTarget } from '../../shared/resource-target';
import { pagePath } from '../../shared/page-routes';
import { startInvestigation } from './InvestigationForm';
import { kindOf } from './investigation-types';

/** Investigate on an object's page: asks the pilot about this object and opens the Investigations page. */
export function InvestigateButton({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const client = useApi();
  const cluster = useCluster();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const kind = kindOf(target.resource);
  if (!kind) return null;
  const investigate = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const subject = { kind, name: target.name, ...(target.namespace ? { namespace: target.namespace } : {}) };
      await startInvestigation(client, cluster, `What is wrong with ${kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}?`, subject);
      navigate(pagePath({ page: 'investigations' }));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="pad">
      <button type="button" className="small-button" disabled={busy} onClick={() => void investigate()}>
        {t('investigations.start')}
      </button>
      <ErrorNotice error={error} />
    </div>
  );
}
