import type { ReportCondition, ReportStatus } from '../crds/report.js';

/** The steps of a generation, one condition each (Kubernetes condition style). */
export const reportSteps = ['Accepted', 'Collected', 'Rendered', 'Stored', 'Ready'] as const;
export type ReportStep = (typeof reportSteps)[number];

/**
 * Builds the status a generation writes: conditions keep their lastTransitionTime while their
 * status stays the same, so watchers see real transitions only.
 */
export class StatusBuilder {
  private readonly conditions = new Map<string, ReportCondition>();

  constructor(
    existing: readonly ReportCondition[],
    private readonly now: () => string,
  ) {
    for (const condition of existing) this.conditions.set(condition.type, condition);
  }

  /** Starts over: every step Unknown (a new generation). */
  reset(): this {
    for (const step of reportSteps) this.set(step, 'Unknown', 'Pending', 'not started');
    return this;
  }

  set(step: ReportStep, status: ReportCondition['status'], reason: string, message: string): this {
    const previous = this.conditions.get(step);
    const lastTransitionTime = previous?.status === status ? (previous.lastTransitionTime ?? this.now()) : this.now();
    this.conditions.set(step, { type: step, status, reason, message, lastTransitionTime });
    return this;
  }

  /** The conditions in step order. */
  list(): ReportCondition[] {
    return reportSteps.flatMap((step) => {
      const condition = this.conditions.get(step);
      return condition ? [condition] : [];
    });
  }

  status(fields: Omit<ReportStatus, 'conditions'>): ReportStatus {
    return { ...fields, conditions: this.list() };
  }
}
