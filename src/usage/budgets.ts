import type { Clock } from '../clock.js';
import type { LlmBudgets } from '../config/schema.js';
import { AppError } from '../errors.js';
import type { UsageSource, UsageSums } from '../store/usage-store.js';
import type { UsageRecorder } from './usage-recorder.js';
import { nextUtcDayStart } from './utc-day.js';

type BudgetName = keyof LlmBudgets;

interface BudgetRule {
  budget: BudgetName;
  perUser: boolean;
  measure: (sums: UsageSums) => number;
}

const tokensOf = (sums: UsageSums): number => sums.inputTokens + sums.outputTokens;
const costOfSums = (sums: UsageSums): number => sums.cost;

const rules: BudgetRule[] = [
  { budget: 'per_user_daily_tokens', perUser: true, measure: tokensOf },
  { budget: 'per_user_daily_cost', perUser: true, measure: costOfSums },
  { budget: 'total_daily_tokens', perUser: false, measure: tokensOf },
  { budget: 'total_daily_cost', perUser: false, measure: costOfSums },
];

export interface BudgetGuardOptions {
  recorder: Pick<UsageRecorder, 'usedToday'>;
  budgets: LlmBudgets;
  clock: Clock;
  /** The rows this guard counts (chat: 'chat'; investigations keep their own budget with 'investigation'). */
  source: UsageSource;
}

/** The error of a used-up budget: 429 BUDGET_EXCEEDED `{budget, used, limit, resetsAt}`. */
export function budgetExceeded(budget: BudgetName, used: number, limit: number, resetsAt: string): AppError {
  return new AppError('BUDGET_EXCEEDED', `the daily LLM budget ${budget} (${limit}) is used up until ${resetsAt}`, { budget, used, limit, resetsAt });
}

/**
 * Daily (UTC) LLM budgets (config `llm.budgets`): tokens (input + output) or cost, per user and for
 * everyone together. A call may start while each budget has something left; the call that crosses one
 * is counted whole, and the next is refused.
 */
export class BudgetGuard {
  constructor(private readonly options: BudgetGuardOptions) {}

  /** True when some budget is set (else check() never reads the store). */
  get enabled(): boolean {
    return rules.some((rule) => this.options.budgets[rule.budget] !== undefined);
  }

  /** Throws BUDGET_EXCEEDED when a budget of `user` (or of everyone) is used up today. */
  async check(user: string): Promise<void> {
    if (!this.enabled) return;
    const { recorder, budgets, source } = this.options;
    const [mine, everyone] = await Promise.all([recorder.usedToday({ user, source }), recorder.usedToday({ source })]);
    for (const rule of rules) {
      const limit = budgets[rule.budget];
      const used = rule.measure(rule.perUser ? mine : everyone);
      if (limit !== undefined && used >= limit) throw budgetExceeded(rule.budget, used, limit, nextUtcDayStart(this.options.clock()));
    }
  }
}
