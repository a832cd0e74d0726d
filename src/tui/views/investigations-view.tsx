import { useCallback, type ReactElement } from 'react';
import { useShell } from '../core/shell.js';
import type { ActionName } from '../core/key-map.js';
import type { Investigation, Row } from '../api/types.js';
import type { Translate } from '../core/i18n.js';
import { LoadedTableView } from './loaded-table-view.js';

/** The subject of an investigation as `Kind namespace/name`, or its alert's name, or nothing. */
function subjectOf(investigation: Investigation): string {
  const subject = investigation.spec.subject;
  if (subject) return `${subject.kind} ${subject.namespace ? `${subject.namespace}/` : ''}${subject.name}`;
  return investigation.spec.alert?.labels?.alertname ?? '';
}

/** One row per Investigation: phase, subject, what was asked and the summary once it concluded. */
function rowOf(investigation: Investigation): Row {
  return {
    name: investigation.metadata.name,
    phase: investigation.status?.phase ?? 'Pending',
    subject: subjectOf(investigation),
    requester: investigation.spec.requester ?? '',
    summary: investigation.status?.summary ?? investigation.spec.question,
    created: investigation.metadata.creationTimestamp ?? '',
  } as Row;
}

/** The details of one Investigation (enter): question, summary, findings with evidence, suggested actions with their state. */
export function investigationText(t: Translate, investigation: Investigation): string {
  const status = investigation.status ?? {};
  const reason = status.conditions?.find((condition) => condition.status === 'True' && ['Failed', 'Skipped'].includes(condition.type));
  const lines = [
    `${t('tui.investigations.phase')}: ${status.phase ?? 'Pending'}${reason?.message ? ` (${reason.message})` : ''}`,
    `${t('tui.investigations.subject')}: ${subjectOf(investigation) || '-'}`,
    `${t('tui.investigations.question')}: ${investigation.spec.question}`,
    `${t('tui.investigations.summary')}: ${status.summary ?? '-'}`,
    '',
    `${t('tui.investigations.findings')}:`,
    ...(status.findings ?? []).flatMap((finding, index) => [
      `  ${index + 1}. ${finding.title}`,
      ...(finding.detail ? [`     ${finding.detail}`] : []),
      ...(finding.evidence ? [`     ${t('tui.investigations.evidence')}: ${finding.evidence}`] : []),
    ]),
    '',
    `${t('tui.investigations.actions')}:`,
    ...(status.suggestedActions ?? []).map((action, index) => {
      const state = action.approvedBy ? ` [${action.outcome ?? 'approved'} by ${action.approvedBy}]` : '';
      return `  ${index}. ${action.command} (${action.class})${state}${action.rationale ? ` - ${action.rationale}` : ''}`;
    }),
  ];
  return lines.join('\n');
}

/** `:investigations` / `:inv`: the Investigations the caller may see, newest first; enter opens one's findings and suggested actions. */
export function InvestigationsView(props: { height: number; width: number; active: boolean }): ReactElement {
  const shell = useShell();
  const load = useCallback(async (): Promise<Row[]> => {
    const items = await shell.api.investigations();
    return [...items].sort((a, b) => (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '')).map(rowOf);
  }, []);
  const onAction = (action: ActionName, row: Row | undefined): void => {
    if (!row || action !== 'open') return;
    shell.push({
      type: 'text',
      view: 'describe',
      title: `investigation ${row.name}`,
      load: async () => investigationText(shell.t, await shell.api.investigation(row.name)),
    });
  };
  return <LoadedTableView view="investigations" title={shell.t('tui.view.investigations')} load={load} onAction={onAction} {...props} />;
}
