import type { LlmProvider, LlmUsage } from '../llm/types.js';
import type { UsageEntry } from '../usage/usage-recorder.js';

/** The tokens and cost of one model call, stored with its assistant entry and shown with the answer. */
export interface CallUsage extends LlmUsage {
  provider: string;
  model: string;
  cost: number;
}

/** The tokens and cost of a whole turn (the `stream_end` event's `usage`). */
export type TurnUsageTotals = LlmUsage & { cost: number };

/** What the loop needs of usage accounting (src/usage/, composed in src/app/compose-pilot.ts). */
export interface UsageMeter {
  /** Throws BUDGET_EXCEEDED when the user's (or everyone's) daily chat budget is used up. */
  checkBudget(user: string): Promise<void>;
  /** Stores one call's usage; resolves to its cost. */
  record(entry: UsageEntry): Promise<{ cost: number }>;
}

export interface CallOrigin {
  user: string;
  cluster?: string;
  sessionId: string;
  provider: LlmProvider;
}

/** Records a call's usage (when the provider reported any) and returns what the history stores of it. */
export async function recordCallUsage(meter: UsageMeter | undefined, origin: CallOrigin, usage: LlmUsage | undefined): Promise<CallUsage | undefined> {
  if (!usage) return undefined;
  const provider = origin.provider.name;
  const model = origin.provider.model ?? 'unknown';
  const entry: UsageEntry = { user: origin.user, cluster: origin.cluster, provider, model, source: 'chat', sessionId: origin.sessionId, ...usage };
  const { cost } = meter ? await meter.record(entry) : { cost: 0 };
  return { provider, model, ...usage, cost };
}

/** `total` plus one call. */
export function addCallUsage(total: TurnUsageTotals | undefined, call: CallUsage): TurnUsageTotals {
  return {
    inputTokens: (total?.inputTokens ?? 0) + call.inputTokens,
    outputTokens: (total?.outputTokens ?? 0) + call.outputTokens,
    cachedInputTokens: (total?.cachedInputTokens ?? 0) + call.cachedInputTokens,
    cost: (total?.cost ?? 0) + call.cost,
  };
}
