import type { LlmPrice } from '../config/schema.js';
import type { LlmUsage } from '../llm/types.js';

const perMillion = 1_000_000;

/**
 * The cost of one call from config `llm.prices` (per million tokens): the uncached input at `input`,
 * the cached part at `cached_input` (default `input`), the answer at `output`. A model without a price costs 0.
 */
export function costOf(prices: Readonly<Record<string, LlmPrice>>, model: string, usage: LlmUsage): number {
  const price = prices[model];
  if (!price) return 0;
  const uncached = Math.max(0, usage.inputTokens - usage.cachedInputTokens);
  const cachedPrice = price.cached_input ?? price.input;
  return (uncached * price.input + usage.cachedInputTokens * cachedPrice + usage.outputTokens * price.output) / perMillion;
}
