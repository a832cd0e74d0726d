import type { Logger } from 'pino';
import type { InvestigationNotificationConfig } from '../config/investigations-schema.js';
import { triggerOf, type Investigation, type InvestigationStatus } from '../crds/investigation.js';
import { checkOutboundUrl, type OutboundUrlPolicy } from '../net/address-policy.js';

/** What the notifier uses. */
export interface NotifierDeps {
  targets: readonly InvestigationNotificationConfig[];
  /** A key of a Secret in Pilothouse's namespace. */
  secretValue(reference: { name: string; key: string }): Promise<string | undefined>;
  urlPolicy: OutboundUrlPolicy;
  logger: Logger;
  /** The home cluster's name (investigations without `spec.cluster`). */
  homeCluster: string;
  /** Time limit of one delivery. */
  timeoutMs?: number;
}

/** The generic JSON webhook body. */
export function webhookBody(investigation: Investigation, status: InvestigationStatus, homeCluster: string): Record<string, unknown> {
  return {
    event: 'investigation.finished',
    name: investigation.metadata.name,
    namespace: investigation.metadata.namespace,
    phase: status.phase,
    trigger: triggerOf(investigation),
    cluster: investigation.spec.cluster ?? homeCluster,
    question: investigation.spec.question,
    subject: investigation.spec.subject ?? null,
    alert: investigation.spec.alert ? { labels: investigation.spec.alert.labels, fingerprint: investigation.spec.alert.fingerprint } : null,
    requester: investigation.spec.requester ?? null,
    summary: status.summary ?? null,
    findings: status.findings ?? [],
    suggestedActions: (status.suggestedActions ?? []).map(({ command, class: commandClass, rationale }) => ({ command, class: commandClass, rationale })),
    tokens: status.tokens ?? 0,
    finishedAt: status.finishedAt ?? null,
  };
}

/** A Slack-compatible body (incoming webhooks: `text`, with mrkdwn). */
export function slackBody(investigation: Investigation, status: InvestigationStatus): Record<string, unknown> {
  const subject = investigation.spec.subject;
  const about = subject ? ` about ${subject.kind} ${subject.namespace ? `${subject.namespace}/` : ''}${subject.name}` : '';
  const findings = (status.findings ?? []).slice(0, 10).map((finding) => `• *${finding.title}*${finding.detail ? `: ${finding.detail}` : ''}`);
  const actions = (status.suggestedActions ?? []).slice(0, 5).map((action) => `• \`${action.command}\` (${action.class})`);
  const lines = [
    `*Investigation ${investigation.metadata.name}* ${status.phase?.toLowerCase() ?? 'finished'}${about}`,
    status.summary ?? '',
    ...(findings.length ? ['*Findings*', ...findings] : []),
    ...(actions.length ? ['*Suggested actions* (approve in Pilothouse)', ...actions] : []),
  ];
  return { text: lines.filter(Boolean).join('\n') };
}

/**
 * Announces a concluded investigation to every configured target: the URL is read from its Secret at each
 * delivery, checked against the outbound address rules, and posted once; a failure is logged, never retried
 * and never fails the investigation.
 */
export class InvestigationNotifier {
  constructor(private readonly deps: NotifierDeps) {}

  async notify(investigation: Investigation, status: InvestigationStatus): Promise<void> {
    await Promise.all(this.deps.targets.map((target) => this.deliver(target, investigation, status)));
  }

  private async deliver(target: InvestigationNotificationConfig, investigation: Investigation, status: InvestigationStatus): Promise<void> {
    const where = { type: target.type, secret: target.url_secret.name, investigation: investigation.metadata.name };
    try {
      const url = await this.deps.secretValue(target.url_secret);
      if (!url) return this.deps.logger.warn(where, 'investigation notification skipped: the URL Secret or key is missing');
      await checkOutboundUrl(url, this.deps.urlPolicy, `investigations.notifications (Secret ${target.url_secret.name})`);
      const body = target.type === 'slack' ? slackBody(investigation, status) : webhookBody(investigation, status, this.deps.homeCluster);
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(this.deps.timeoutMs ?? 10_000),
      });
      await response.body?.cancel();
      if (!response.ok) this.deps.logger.warn({ ...where, status: response.status }, 'investigation notification refused by its receiver');
    } catch (error) {
      this.deps.logger.warn({ ...where, err: error instanceof Error ? error.message : String(error) }, 'investigation notification not delivered');
    }
  }
}
