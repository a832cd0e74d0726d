import type { UsageMeter } from './usage-meter.js';
import type { BudgetGuard } from './budgets.js';
import type { UsageEntry, UsageObserver, UsageRecorder } from './usage-recorder.js';

/** The chat's usage meter: the recorder, and the chat's daily budgets checked before each model call. */
export class ChatUsageMeter implements UsageMeter {
  constructor(
    private readonly recorder: UsageRecorder,
    private readonly budgets: BudgetGuard,
  ) {}

  checkBudget(user: string): Promise<void> {
    return this.budgets.check(user);
  }

  record(entry: UsageEntry): Promise<{ cost: number }> {
    return this.recorder.record(entry);
  }
}

/** The /metrics counters the recorder feeds. */
export interface UsageCounters {
  llmTokens: { inc(labels: { provider: string; model: string; kind: string }, value: number): void };
  llmCost: { inc(labels: { provider: string; model: string }, value: number): void };
}

/** pilothouse_llm_tokens_total{provider,model,kind} and pilothouse_llm_cost_total{provider,model}. */
export function usageMetrics(counters: UsageCounters): UsageObserver {
  return {
    observe: (entry, cost) => {
      const labels = { provider: entry.provider, model: entry.model };
      counters.llmTokens.inc({ ...labels, kind: 'input' }, entry.inputTokens);
      counters.llmTokens.inc({ ...labels, kind: 'output' }, entry.outputTokens);
      counters.llmTokens.inc({ ...labels, kind: 'cached_input' }, entry.cachedInputTokens);
      counters.llmCost.inc(labels, cost);
    },
  };
}
