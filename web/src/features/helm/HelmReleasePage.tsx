import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { Link, navigate } from '../../shared/router';
import { useT } from '../../i18n';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { useAction } from '../../shared/use-action';
import { ActionNotices } from '../layout/ActionNotices';
import { useApiQuery } from '../../shared/use-api-query';
import { formatTime } from '../../shared/time';
import { statusTone, type ReleaseDetails } from './helm-types';
import { ReleaseHistory } from './ReleaseHistory';
import { ReleaseTabs, type ReleaseTab } from './ReleaseTabs';
import { ReleaseText } from './ReleaseText';
import { ReleaseUpgrade } from './ReleaseUpgrade';
import '../layout/pages.css';

function Summary({ release }: { release: ReleaseDetails }): ReactNode {
  const t = useT();
  return (
    <dl className="overview-facts card page-section">
      <dt>{t('helm.status')}</dt>
      <dd className={statusTone(release.status)} data-testid="release-status">
        {release.status}
      </dd>
      <dt>{t('helm.chart')}</dt>
      <dd>{release.chart}</dd>
      <dt>{t('helm.appVersion')}</dt>
      <dd>{release.appVersion}</dd>
      <dt>{t('helm.revision')}</dt>
      <dd data-testid="release-revision">{release.revision}</dd>
      <dt>{t('helm.updated')}</dt>
      <dd data-testid="release-updated">{release.lastDeployed ? formatTime(release.lastDeployed) : ''}</dd>
    </dl>
  );
}

/** The chart's NOTES of the release (what to do next, where it answers), as the chart printed them. */
function Notes({ notes }: { notes: string }): ReactNode {
  const t = useT();
  if (!notes.trim()) return null;
  return (
    <details className="card page-section" open>
      <summary>{t('helm.notes')}</summary>
      <pre className="code" data-testid="release-notes">
        {notes.trim()}
      </pre>
    </details>
  );
}

interface PanelProps {
  tab: ReleaseTab;
  namespace: string;
  name: string;
  release: ReleaseDetails | undefined;
  canWrite: boolean;
  busy: boolean;
  onRollback: (revision: number) => void;
  onChanged: () => void;
}

function ReleasePanel({ tab, namespace, name, release, canWrite, busy, onRollback, onChanged }: PanelProps): ReactNode {
  const t = useT();
  if (tab === 'values') return <ReleaseText name={name} namespace={namespace} kind="values" />;
  if (tab === 'manifest') return <ReleaseText name={name} namespace={namespace} kind="manifest" />;
  if (tab === 'history')
    return <ReleaseHistory namespace={namespace} name={name} current={release?.revision ?? 0} busy={busy} canWrite={canWrite} onRollback={onRollback} />;
  if (!release) return null;
  return canWrite ? <ReleaseUpgrade release={release} onDone={onChanged} /> : <p className="muted">{t('helm.viewerNoUpgrade')}</p>;
}

/** One release: summary, values, manifest (Secrets masked by the service), history with rollback, upgrade, uninstall. */
export function HelmReleasePage({ namespace, name }: { namespace: string; name: string }): ReactNode {
  const t = useT();
  const client = useApi();
  const queries = useQueryClient();
  const canWrite = client.current?.role !== 'viewer';
  const path = `/api/helm/releases/${encodeURIComponent(name)}`;
  const release = useApiQuery('/api/helm/releases/{name}', { path: { name }, query: { namespace } });
  const [tab, setTab] = useState<ReleaseTab>('values');
  const [confirming, setConfirming] = useState(false);
  // A rollback replaces what runs: it waits for a confirmation that names the revision.
  const [rollingBack, setRollingBack] = useState<number | undefined>(undefined);
  const refresh = (): void => void queries.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith(path) });
  const action = useAction(refresh);
  const rollback = (revision: number): Promise<void> =>
    action.act(async () => {
      await client.call('POST', '/api/helm/releases/{name}/rollback', { path: { name }, body: { namespace, revision } });
      setRollingBack(undefined);
      return t('helm.rolledBack', { revision });
    });
  const uninstall = (): Promise<void> =>
    action.act(async () => {
      await client.call('DELETE', '/api/helm/releases/{name}', { path: { name }, query: { namespace } });
      setConfirming(false);
      navigate('/helm');
      return t('helm.uninstalled', { name });
    });

  return (
    <section className="page" aria-labelledby="release-title">
      <div className="toolbar">
        <Link to="/helm">{t('helm.back')}</Link>
        <h1 id="release-title">{t('helm.releaseTitle', { name, namespace })}</h1>
        {canWrite && (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            {t('helm.uninstall')}
          </button>
        )}
      </div>
      <ActionNotices action={action} error={release.error} />
      {release.data && <Summary release={release.data} />}
      {release.data && <Notes notes={release.data.notes} />}
      <ReleaseTabs tab={tab} onTab={setTab} />
      <div role="tabpanel" id={`release-panel-${tab}`} aria-labelledby={`release-tab-${tab}`} className="tab-panel">
        <ReleasePanel
          tab={tab}
          namespace={namespace}
          name={name}
          release={release.data}
          canWrite={canWrite}
          busy={action.busy}
          onRollback={setRollingBack}
          onChanged={refresh}
        />
      </div>
      {rollingBack !== undefined && (
        <ConfirmDialog
          title={t('helm.rollbackTitle', { name, revision: rollingBack })}
          confirmLabel={t('helm.rollback')}
          cancelLabel={t('helm.cancel')}
          busy={action.busy}
          onConfirm={() => void rollback(rollingBack)}
          onCancel={() => setRollingBack(undefined)}
        >
          <p>{t('helm.rollbackText', { name, namespace, revision: rollingBack, current: release.data?.revision ?? 0 })}</p>
        </ConfirmDialog>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('helm.uninstallTitle', { name })}
          confirmLabel={t('helm.uninstall')}
          cancelLabel={t('helm.cancel')}
          danger
          busy={action.busy}
          onConfirm={() => void uninstall()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('helm.uninstallText', { name, namespace })}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
