import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { investigationAnnotations, triggerOf, type Investigation, type InvestigationPhase, type InvestigationStatus } from '../crds/investigation.js';
import type { CustomClient } from '../kube/custom-client.js';
import type { WantedCondition } from './conditions.js';
import { noEvents, type EventNote, type EventRecorder } from './events.js';
import type { Reconciler, Result } from './reconciler.js';
import type { InvestigationRunRequest, InvestigationRunResult } from '../investigations/investigation-run.js';
import { failureReason, isFinished, withConditions } from './investigation-status.js';
import { suggestedActions } from '../investigations/action-class.js';

/** What the reconciler uses (src/app/compose-investigations.ts hands it exactly these). */
export interface InvestigationReconcilerDeps {
  investigations: CustomClient<Investigation>;
  /** Runs one investigation (the headless agent loop). */
  run(request: InvestigationRunRequest): Promise<InvestigationRunResult>;
  /** Runbooks and per-namespace instructions for an investigation. */
  instructions(investigation: Investigation): Promise<string[]>;
  /** Pilothouse's own class of a suggested command (the kubectl safety classifier). */
  classify(command: string): string;
  clock: Clock;
  logger: Logger;
  events?: EventRecorder;
  /** The home cluster's name: Events on a subject are written there only. */
  homeCluster: string;
  /**
   * Input + output tokens of every investigation's model calls this UTC day, from the usage store (source
   * `investigation`): the figure `investigations.daily_token_budget` is checked against.
   */
  tokensToday(): Promise<number>;
  /** `investigations.enabled`, `concurrency`, `daily_token_budget`, `max_steps`. */
  limits: { enabled: boolean; concurrency: number; dailyTokenBudget?: number; maxSteps: number };
  /** Sees every Investigation that reached a final phase (metric, audit, notifications). */
  finished?(investigation: Investigation, status: InvestigationStatus): Promise<void>;
}

const pendingRecheckMs = 1000;

/**
 * Level-based Investigation reconciler (leader only): a new Investigation is Pending until a run slot is free
 * (`investigations.concurrency`), Skipped when investigations are off or the day's token budget is spent, else
 * Running — the headless read-only agent loop in the background — and then Concluded (the model called
 * conclude) or Failed. A Running one this replica does not run (the previous leader's) runs again.
 */
export class InvestigationReconciler implements Reconciler {
  readonly name = 'investigation';
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly deps: InvestigationReconcilerDeps) {}

  /** Stops the runs in progress (leadership lost, shutdown); the next leader runs them again. */
  stop(): void {
    for (const run of this.running.values()) run.abort();
    this.running.clear();
  }

  async reconcile(key: string): Promise<Result> {
    const investigation = await this.deps.investigations.get(key);
    if (!investigation || investigation.metadata.deletionTimestamp) {
      this.running.get(key)?.abort();
      return {};
    }
    await this.syncAlertResolved(investigation);
    if (isFinished(investigation.status) || this.running.has(key)) return {};
    const skip = await this.skipReason();
    if (skip) {
      await this.finish(investigation, 'Skipped', { tokens: 0 }, [{ type: 'Skipped', status: 'True', ...skip }]);
      return {};
    }
    if (this.running.size >= this.deps.limits.concurrency) {
      if (investigation.status?.phase !== 'Pending') await this.write(investigation, { phase: 'Pending' }, [waiting]);
      return { requeueAfter: pendingRecheckMs };
    }
    this.launch(investigation);
    return {};
  }

  /** A resolved alert (the receiver's annotation) sets AlertResolved, whatever the phase. */
  private async syncAlertResolved(investigation: Investigation): Promise<void> {
    const at = investigation.metadata.annotations?.[investigationAnnotations.alertResolvedAt];
    if (!at || investigation.status?.conditions?.some((condition) => condition.type === 'AlertResolved' && condition.status === 'True')) return;
    await this.write(investigation, {}, [{ type: 'AlertResolved', status: 'True', reason: 'Resolved', message: `the alert resolved at ${at}` }]);
  }

  private now(): string {
    return new Date(this.deps.clock()).toISOString();
  }

  /** Why a new investigation does not run: investigations are off, or today's budget is spent. */
  private async skipReason(): Promise<{ reason: string; message: string } | undefined> {
    if (!this.deps.limits.enabled) return { reason: 'Disabled', message: 'investigations.enabled is false' };
    const budget = this.deps.limits.dailyTokenBudget;
    if (budget === undefined) return undefined;
    const used = await this.deps.tokensToday();
    if (used < budget) return undefined;
    return { reason: 'BudgetExhausted', message: `today's investigations used ${used} tokens of investigations.daily_token_budget ${budget}` };
  }

  private launch(investigation: Investigation): void {
    const name = investigation.metadata.name;
    const abort = new AbortController();
    this.running.set(name, abort);
    void this.runOne(investigation, abort.signal)
      .catch((error: unknown) => this.deps.logger.warn({ investigation: name, err: describe(error) }, 'investigation run failed'))
      .finally(() => {
        if (this.running.get(name)?.signal === abort.signal) this.running.delete(name);
      });
  }

  private async runOne(investigation: Investigation, signal: AbortSignal): Promise<void> {
    const startedAt = this.now();
    const started: WantedCondition = { type: 'Started', status: 'True', reason: 'Running', message: 'the pilot is investigating (read-only)' };
    await this.write(investigation, { phase: 'Running', startedAt, tokens: 0 }, [started, { ...concludedFalse, reason: 'Running' }]);
    await this.announce(investigation, { type: 'Normal', reason: 'Investigating', note: `investigating: ${investigation.spec.question}` });
    const instructions = await this.deps.instructions(investigation).catch(() => []);
    const result = await this.deps.run({ investigation, instructions, signal });
    if (signal.aborted) return;
    const common = { startedAt, tokens: result.tokens, session: result.session, model: result.model };
    const conclusion = result.conclusion;
    if (!conclusion) {
      const failure = failureReason(result.reason, this.deps.limits.maxSteps);
      await this.finish(investigation, 'Failed', common, [
        { type: 'Failed', status: 'True', ...failure },
        { ...concludedFalse, ...failure },
      ]);
      return;
    }
    const status = {
      ...common,
      summary: conclusion.summary,
      findings: conclusion.findings,
      suggestedActions: suggestedActions(this.deps.classify, conclusion),
    };
    const message = `${conclusion.findings.length} findings, ${conclusion.suggestedActions.length} suggested actions`;
    await this.finish(investigation, 'Concluded', status, [{ type: 'Concluded', status: 'True', reason: 'Concluded', message }]);
  }

  private async finish(investigation: Investigation, phase: InvestigationPhase, status: InvestigationStatus, conditions: WantedCondition[]): Promise<void> {
    const final: InvestigationStatus = { ...status, phase, finishedAt: this.now() };
    await this.write(investigation, final, conditions);
    const first = conditions[0];
    const note = phase === 'Concluded' ? (status.summary ?? 'concluded') : (first?.message ?? phase);
    await this.announce(investigation, { type: phase === 'Failed' ? 'Warning' : 'Normal', reason: phase, note });
    await this.deps
      .finished?.(investigation, final)
      .catch((error: unknown) => this.deps.logger.warn({ err: describe(error) }, 'investigation follow-up failed'));
  }

  private async write(investigation: Investigation, status: InvestigationStatus, conditions: readonly WantedCondition[]): Promise<void> {
    // Conditions set meanwhile by others (AlertResolved from the webhook) are kept: merged into the current object's.
    const current = (await this.deps.investigations.get(investigation.metadata.name)) ?? investigation;
    const merged = withConditions(current.status?.conditions, conditions, investigation.metadata.generation, this.now());
    investigation.status = { ...investigation.status, ...status, conditions: merged };
    await this.deps.investigations.patchStatus(investigation.metadata.name, { ...status, conditions: merged });
  }

  /** An Event on the Investigation and, on the home cluster, on its subject. */
  private async announce(investigation: Investigation, event: Omit<EventNote, 'action'>): Promise<void> {
    const events = this.deps.events ?? noEvents;
    const note = { ...event, action: 'Investigate' };
    await events.record({ kind: 'Investigation', metadata: investigation.metadata }, note);
    const subject = investigation.spec.subject;
    if (subject && (investigation.spec.cluster ?? this.deps.homeCluster) === this.deps.homeCluster) {
      const about = `investigation ${investigation.metadata.name} (${triggerOf(investigation)}): ${note.note}`;
      await events.record({ apiVersion: '', kind: subject.kind, metadata: { name: subject.name, namespace: subject.namespace } }, { ...note, note: about });
    }
  }
}

const waiting: WantedCondition = {
  type: 'Started',
  status: 'False',
  reason: 'WaitingForSlot',
  message: 'waiting for a free run slot (investigations.concurrency)',
};
const concludedFalse: WantedCondition = { type: 'Concluded', status: 'False', reason: 'Running', message: 'not concluded yet' };

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
