import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { useApi } from '../../shared/api-context';
import { useAskPilot } from '../../shared/pilot-focus';
import { InvestigateButton } from '../investigations/InvestigateButton';
import { investigationQuestion, targetOf, type Finding } from './problem-model';

/** The pilot's question about a finding (what the composer starts with). */
function askText(finding: Finding, t: ReturnType<typeof useT>): string {
  return t('problems.askQuestion', { reason: finding.reason, object: `${finding.object.kind}/${finding.object.name}` });
}

/**
 * What a person does with a finding: Ask the pilot (opens the chat with the finding as its context) and, for
 * those who may run read-only commands, Investigate (a read-only run of the pilot about the object, asking the finding).
 */
export function FindingActions({ finding }: { finding: Finding }): ReactNode {
  const t = useT();
  const ask = useAskPilot();
  const role = useApi().current?.role;
  const { object } = finding;
  return (
    <div className="finding-actions row-actions">
      {ask && (
        <button
          type="button"
          className="small-button primary"
          onClick={() =>
            ask({
              finding: finding.id,
              label: `${finding.reason} · ${object.kind}/${object.name}`,
              question: askText(finding, t),
              namespace: object.namespace,
              resource: `${object.kind}/${object.name}`,
            })
          }
        >
          {t('problems.ask')}
        </button>
      )}
      {role !== 'viewer' && <InvestigateButton target={targetOf(object)} kind={object.kind} question={investigationQuestion(finding)} />}
    </div>
  );
}
