import type { ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import type { ActionState } from '../../shared/use-action';
import type { Investigation } from './investigation-types';

/** The findings and the suggested actions of one investigation, each action with its Approve button (once). */
export function InvestigationDetails({ investigation, action }: { investigation: Investigation; action: ActionState }): ReactNode {
  const t = useT();
  const client = useApi();
  const role = client.current?.role;
  const name = investigation.metadata.name;
  const findings = investigation.status?.findings ?? [];
  const actions = investigation.status?.suggestedActions ?? [];
  const approve = (index: number): Promise<string> =>
    client
      .call('POST', '/api/investigations/{name}/actions/{index}/approve', { path: { name, index: String(index) }, body: {} })
      .then((run) => t('investigations.ran', { command: run.command }));
  return (
    <div className="pad">
      {findings.length > 0 && (
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
      )}
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
                    <button type="button" className="small-button" disabled={action.busy} onClick={() => void action.act(() => approve(index))}>
                      {t('investigations.approve')}
                    </button>
                  )
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
