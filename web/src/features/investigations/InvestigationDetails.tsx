import { useState, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { useT } from '../../i18n';
import type { ActionState } from '../../shared/use-action';
import type { Investigation } from './investigation-types';

type Finding = NonNullable<NonNullable<Investigation['status']>['findings']>[number];
type Suggested = NonNullable<NonNullable<Investigation['status']>['suggestedActions']>[number];

/** The findings, each with its evidence. */
function Findings({ findings }: { findings: Finding[] }): ReactNode {
  const t = useT();
  if (findings.length === 0) return null;
  return (
    <>
      <h3>{t('investigations.findings')}</h3>
      <ul>
        {findings.map((finding, index) => (
          <li key={index}>
            <strong>{finding.title}</strong>
            {finding.detail ? `: ${finding.detail}` : ''}
            {finding.evidence && <pre className="small">{finding.evidence}</pre>}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The confirmation of an approval: it names the command and its class; it runs once, as the approver. */
function ApproveDialog(props: { suggested: Suggested; busy: boolean; onConfirm: () => void; onCancel: () => void }): ReactNode {
  const t = useT();
  return (
    <ConfirmDialog
      title={t('investigations.approveTitle', { command: props.suggested.command })}
      confirmLabel={t('investigations.approve')}
      cancelLabel={t('investigations.cancel')}
      danger={props.suggested.class !== 'read'}
      busy={props.busy}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      <p>{t('investigations.approveText', { class: props.suggested.class })}</p>
    </ConfirmDialog>
  );
}

/** The findings and the suggested actions of one investigation, each action with its Approve button (once, after a confirmation). */
export function InvestigationDetails({ investigation, action }: { investigation: Investigation; action: ActionState }): ReactNode {
  const t = useT();
  const client = useApi();
  const role = client.current?.role;
  const name = investigation.metadata.name;
  const actions = investigation.status?.suggestedActions ?? [];
  const [confirming, setConfirming] = useState<number>();
  const approve = (index: number): Promise<string> =>
    client.call('POST', '/api/investigations/{name}/actions/{index}/approve', { path: { name, index: String(index) }, body: {} }).then((run) => {
      setConfirming(undefined);
      return t('investigations.ran', { command: run.command });
    });
  const chosen = confirming === undefined ? undefined : actions[confirming];
  return (
    <div className="pad">
      <Findings findings={investigation.status?.findings ?? []} />
      {actions.length > 0 && (
        <>
          <h3>{t('investigations.actions')}</h3>
          <ul>
            {actions.map((suggested, index) => (
              <li key={index}>
                <code>{suggested.command}</code> <span className="muted small">({suggested.class})</span>
                {suggested.rationale && <span className="small"> {suggested.rationale}</span>}{' '}
                {suggested.approvedBy ? (
                  <span className="muted small">{t('investigations.approvedBy', { name: suggested.approvedBy })}</span>
                ) : (
                  role !== 'viewer' && (
                    <button type="button" className="small-button" disabled={action.busy} onClick={() => setConfirming(index)}>
                      {t('investigations.approve')}
                    </button>
                  )
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {chosen && confirming !== undefined && (
        <ApproveDialog
          suggested={chosen}
          busy={action.busy}
          onConfirm={() => void action.act(() => approve(confirming))}
          onCancel={() => setConfirming(undefined)}
        />
      )}
    </div>
  );
}
