import type { Investigation } from '../crds/investigation.js';

/** The investigation's standing instructions (after the chat system prompt). */
export const investigationRules = [
  'You are running an investigation on your own: nobody reads along and nobody can approve anything.',
  'You are read-only: every change is refused and never runs. Read what you need (get, describe, logs, events, metrics), then call the conclude tool exactly once with a summary, findings (each with the evidence you read) and suggested kubectl commands a person could approve.',
  'Do not ask questions; when something cannot be read, say so in the findings.',
].join('\n');

function subjectLine(investigation: Investigation): string[] {
  const subject = investigation.spec.subject;
  if (!subject) return [];
  return [`Subject: ${subject.kind} ${subject.namespace ? `${subject.namespace}/` : ''}${subject.name}`];
}

function alertLines(investigation: Investigation): string[] {
  const alert = investigation.spec.alert;
  if (!alert) return [];
  const pairs = (record: Record<string, string>): string =>
    Object.entries(record)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(', ');
  return [
    `Alert: ${alert.labels.alertname ?? '(no alertname)'} (fingerprint ${alert.fingerprint}${alert.startsAt ? `, firing since ${alert.startsAt}` : ''})`,
    `Alert labels: ${pairs(alert.labels)}`,
    ...(Object.keys(alert.annotations).length ? [`Alert annotations: ${pairs(alert.annotations)}`] : []),
  ];
}

/** The user message of the run: the question, the subject and the alert. */
export function investigationMessage(investigation: Investigation): string {
  return [investigation.spec.question, '', ...subjectLine(investigation), ...alertLines(investigation)].join('\n').trim();
}

/** The namespace the investigation is about: the subject's, else the alert's `namespace` label. */
export function investigationNamespace(investigation: Investigation): string | undefined {
  return investigation.spec.subject?.namespace ?? investigation.spec.alert?.labels.namespace;
}
