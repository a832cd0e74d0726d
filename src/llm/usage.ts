import type { LlmUsage } from './types.js';

/** A count from a provider's usage field: a non-negative integer, or 0 when absent. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/** Builds the usage of one call; `cachedInputTokens` never exceeds `inputTokens`. */
export function usageOf(input: unknown, output: unknown, cached?: unknown): LlmUsage {
  const inputTokens = tokenCount(input);
  return { inputTokens, outputTokens: tokenCount(output), cachedInputTokens: Math.min(tokenCount(cached), inputTokens) };
}

/** The `done` event's optional usage field. */
export function usageField(usage: LlmUsage | undefined): { usage?: LlmUsage } {
  return usage ? { usage } : {};
}
