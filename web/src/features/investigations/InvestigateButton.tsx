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

/**
 * Investigate on an object's page: asks the pilot about this object (`question`, e.g. a finding's; by default
 * what is wrong with it) and opens the Investigations page. `kind` names the subject's kind when the resource is not one of ours.
 */
export function InvestigateButton({ target, question, kind: subjectKind }: { target: ResourceTarget; question?: string; kind?: string }): ReactNode {
  const t = useT();
  const client = useApi();
  const cluster = useCluster();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const kind = subjectKind ?? kindOf(target.resource);
  if (!kind) return null;
  const investigate = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const subject = { kind, name: target.name, ...(target.namespace ? { namespace: target.namespace } : {}) };
      const asked = question ?? `What is wrong with ${kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}?`;
      await startInvestigation(client, cluster, asked, subject);
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
