import type { LlmProvider, LlmUsage } from '../../llm/types.js';
import type { UsageEntry } from '../../usage/usage-recorder.js';
import type { UsageMeter } from '../../usage/usage-meter.js';

/** The tokens and cost of one model call, stored with its assistant entry and shown with the answer. */
export interface CallUsage extends LlmUsage {
  provider: string;
  model: string;
  cost: number;
}

/** The tokens and cost of a whole turn (the `stream_end` event's `usage`). */
export type TurnUsageTotals = LlmUsage & { cost: number };

export type { UsageMeter } from '../../usage/usage-meter.js';

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
