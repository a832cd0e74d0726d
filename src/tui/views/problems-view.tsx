import { useCallback, type ReactElement } from 'react';
import type { Finding } from '@pilothouse/wire/types';
import { useShell, type Shell } from '../core/shell.js';
import type { ActionName } from '../core/key-map.js';
import type { Row, Target } from '../api/types.js';
import { LoadedTableView } from './loaded-table-view.js';
import { agedBy } from '../core/columns.js';

/** `Pod/web-1` */
const objectOf = (finding: Finding): string => `${finding.object.kind}/${finding.object.name}`;

/** One row per finding (critical first, as the server orders them); the finding itself rides along, hidden (objects are not columns). */
function rowOf(finding: Finding): Row {
  return {
    name: objectOf(finding),
    namespace: finding.object.namespace ?? '',
    severity: finding.severity,
    reason: finding.reason,
    owner: finding.owner ? `${finding.owner.kind}/${finding.owner.name}` : '',
    message: finding.message,
    // How long the finding has stood, in the lists' short age form (`40s`, `12m`, `3h`).
    age: agedBy('0s', Math.max(0, (Date.now() - Date.parse(finding.since)) / 1000)),
    finding,
  } as Row;
}

/** The object a finding is about, as the describe and YAML endpoints name it (discovery takes the kind). */
function targetOf(finding: Finding): Target {
  return { resource: finding.object.kind.toLowerCase(), name: finding.object.name, namespace: finding.object.namespace };
}

/** The question an investigation of a finding asks (the web's Investigate button asks the same). */
function investigationQuestion(finding: Finding): string {
  return `Why does ${finding.object.kind} ${finding.object.namespace ? `${finding.object.namespace}/` : ''}${finding.object.name} show ${finding.reason} (${finding.message.slice(0, 2000)}), and what would fix it?`;
}

/** `i`: a read-only investigation of the finding's object, asking the finding (the question can be edited first). */
async function investigate(shell: Shell, finding: Finding): Promise<void> {
  const object = objectOf(finding);
  const question = await shell.ask(shell.t('tui.prompt.investigate', { object }), investigationQuestion(finding));
  if (!question?.trim()) return;
  const { kind, name, namespace } = finding.object;
  const created = await shell.api.investigate({ question: question.trim(), subject: { kind, name, ...(namespace ? { namespace } : {}) } });
  shell.notice(shell.t('tui.problems.investigating', { name: created }));
}

/** `p`: the AI pilot's pane, asking about the finding (sent as the chat context's `finding`, as the web's Ask the pilot does). */
function askPilot(shell: Shell, finding: Finding): void {
  const object = objectOf(finding);
  const focus = {
    finding: finding.id,
    label: `${finding.reason} · ${object}`,
    question: shell.t('problems.askQuestion', { reason: finding.reason, object }),
    namespace: finding.object.namespace,
    resource: object,
  };
  if (shell.askPilot(focus)) shell.notice(shell.t('tui.problems.asked', { reason: finding.reason, object }));
  else shell.notice(shell.t('tui.problems.noPilot'));
}

async function onFinding(shell: Shell, action: ActionName, finding: Finding): Promise<void> {
  const target = targetOf(finding);
  const title = objectOf(finding);
  if (action === 'open') shell.push({ type: 'text', view: 'describe', title, load: () => shell.api.describe(target) });
  else if (action === 'yaml') shell.push({ type: 'text', view: 'yaml', title, load: () => shell.api.yaml(target) });
  else if (action === 'askPilot') askPilot(shell, finding);
  else if (action === 'investigate') await investigate(shell, finding);
}

/** `:problems`: the current cluster's findings across namespaces (critical red, warning yellow); enter opens the object, p asks the pilot, i investigates. */
export function ProblemsView(props: { height: number; width: number; active: boolean }): ReactElement {
  const shell = useShell();
  const load = useCallback(async (): Promise<Row[]> => (await shell.api.problems()).map(rowOf), []);
  const onAction = async (action: ActionName, row: Row | undefined): Promise<void> => {
    const finding = row?.finding as Finding | undefined;
    if (!finding) return;
    try {
      await onFinding(shell, action, finding);
    } catch (error) {
      shell.report(error);
    }
  };
  return <LoadedTableView view="problems" title={shell.t('tui.view.problems')} load={load} onAction={onAction} showNamespace {...props} />;
}
