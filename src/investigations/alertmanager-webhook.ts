import { z } from 'zod';
import type { Clock } from '../clock.js';
import { investigationAnnotations, investigationLabels, type InvestigationAlert, type InvestigationSubject } from '../crds/investigation.js';
import { fingerprintLabel, type InvestigationStore } from './investigation-store.js';

/** One alert of Alertmanager's webhook payload (version 4). */
export const alertmanagerAlertSchema = z.object({
  status: z.enum(['firing', 'resolved']),
  labels: z.record(z.string(), z.string()).default({}),
  annotations: z.record(z.string(), z.string()).default({}),
  startsAt: z.string().optional(),
  endsAt: z.string().optional(),
  generatorURL: z.string().optional(),
  fingerprint: z.string().min(1).max(128),
});

/** Alertmanager's webhook payload, version 4 (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config). */
export const alertmanagerPayloadSchema = z
  .object({
    version: z.literal('4'),
    groupKey: z.string().optional(),
    truncatedAlerts: z.number().int().optional(),
    status: z.enum(['firing', 'resolved']),
    receiver: z.string().optional(),
    groupLabels: z.record(z.string(), z.string()).optional(),
    commonLabels: z.record(z.string(), z.string()).optional(),
    commonAnnotations: z.record(z.string(), z.string()).optional(),
    externalURL: z.string().optional(),
    alerts: z.array(alertmanagerAlertSchema).max(1000),
  })
  .meta({ id: 'AlertmanagerWebhookPayload' });
export type AlertmanagerPayload = z.infer<typeof alertmanagerPayloadSchema>;
type AlertmanagerAlert = z.infer<typeof alertmanagerAlertSchema>;

/** What a delivery did, alert by alert. */
export const alertDeliverySchema = z
  .object({
    created: z.array(z.string()),
    deduplicated: z.array(z.string()),
    resolved: z.array(z.string()),
  })
  .meta({ id: 'AlertmanagerDelivery' });
export type AlertDelivery = z.infer<typeof alertDeliverySchema>;

/** Alert labels naming the object an alert is about, most specific first (kube-state-metrics' names). */
const subjectLabels: readonly [string, string][] = [
  ['pod', 'Pod'],
  ['deployment', 'Deployment'],
  ['statefulset', 'StatefulSet'],
  ['daemonset', 'DaemonSet'],
  ['job_name', 'Job'],
  ['cronjob', 'CronJob'],
  ['persistentvolumeclaim', 'PersistentVolumeClaim'],
  ['service', 'Service'],
  ['node', 'Node'],
];

/** The object an alert's labels name, if any (a namespace label alone: the Namespace). */
export function alertSubject(labels: Record<string, string>): InvestigationSubject | undefined {
  const namespace = labels.namespace;
  for (const [label, kind] of subjectLabels) {
    const name = labels[label];
    if (!name) continue;
    return kind === 'Node' ? { kind, name } : namespace ? { kind, namespace, name } : undefined;
  }
  return namespace ? { kind: 'Namespace', name: namespace } : undefined;
}

function alertQuestion(alert: AlertmanagerAlert): string {
  const name = alert.labels.alertname ?? 'an alert';
  const about = alert.annotations.summary ?? alert.annotations.description ?? alert.annotations.message;
  return `Why is the alert ${name} firing${about ? `: ${about}` : ''}? Find the cause and suggest a fix.`.slice(0, 4000);
}

function alertOf(alert: AlertmanagerAlert): InvestigationAlert {
  return {
    labels: alert.labels,
    annotations: alert.annotations,
    fingerprint: alert.fingerprint,
    ...(alert.startsAt ? { startsAt: alert.startsAt } : {}),
    ...(alert.generatorURL ? { generatorURL: alert.generatorURL.slice(0, 2048) } : {}),
  };
}

/** What the receiver uses. */
export interface AlertReceiverDeps {
  store: InvestigationStore;
  clock: Clock;
  cooldownMs: number;
}

/**
 * Turns Alertmanager deliveries into Investigations: each firing alert starts one (requester `alertmanager`)
 * unless one of the same fingerprint is younger than `investigations.cooldown`; a resolved alert marks its
 * newest Investigation (annotation `pilothouse.dev/alert-resolved-at`), on which the reconciler sets `AlertResolved`.
 */
export class AlertReceiver {
  constructor(private readonly deps: AlertReceiverDeps) {}

  /** Handles every alert of a delivery; `onCreated` sees each new Investigation with its alert's name (the audit row). */
  async deliver(payload: AlertmanagerPayload, onCreated?: (name: string, alertname: string) => void): Promise<AlertDelivery> {
    const delivery: AlertDelivery = { created: [], deduplicated: [], resolved: [] };
    for (const alert of payload.alerts) {
      if (alert.status === 'resolved') await this.resolve(alert, delivery);
      else await this.fire(alert, delivery, onCreated);
    }
    return delivery;
  }

  private async fire(alert: AlertmanagerAlert, delivery: AlertDelivery, onCreated?: (name: string, alertname: string) => void): Promise<void> {
    const existing = await this.deps.store.byFingerprint(alert.fingerprint);
    const created = Date.parse(existing?.metadata.creationTimestamp ?? '');
    if (existing && this.deps.clock() - created < this.deps.cooldownMs) {
      delivery.deduplicated.push(existing.metadata.name);
      return;
    }
    const subject = alertSubject(alert.labels);
    const spec = { question: alertQuestion(alert), alert: alertOf(alert), requester: 'alertmanager', ...(subject ? { subject } : {}) };
    const labels = { [investigationLabels.trigger]: 'alert', [investigationLabels.fingerprint]: fingerprintLabel(alert.fingerprint) };
    const name = (await this.deps.store.create(spec, labels)).metadata.name;
    delivery.created.push(name);
    onCreated?.(name, alert.labels.alertname ?? '');
  }

  /** Marks the newest investigation of the alert resolved (an annotation; its reconciler sets the AlertResolved condition). */
  private async resolve(alert: AlertmanagerAlert, delivery: AlertDelivery): Promise<void> {
    const investigation = await this.deps.store.byFingerprint(alert.fingerprint);
    if (!investigation) return;
    const endsAt = Date.parse(alert.endsAt ?? '');
    const at = new Date(Number.isNaN(endsAt) || endsAt <= 0 ? this.deps.clock() : endsAt).toISOString();
    if (!investigation.metadata.annotations?.[investigationAnnotations.alertResolvedAt]) {
      await this.deps.store.client.patch(investigation.metadata.name, { metadata: { annotations: { [investigationAnnotations.alertResolvedAt]: at } } });
    }
    delivery.resolved.push(investigation.metadata.name);
  }
}
