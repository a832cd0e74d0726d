import type { CommandClass, Verdict } from './types.js';

/** Ordering rank: read < write = unknown < interactive < dangerous. */
const rank: Record<CommandClass, number> = { read: 0, write: 1, unknown: 1, interactive: 2, dangerous: 3 };

/**
 * The more severe of two classes. `unknown` ranks like `write`; on a tie the known class
 * (`write`) wins, so `unknown` is reported only when nothing known is at least as severe.
 */
export function moreSevere(first: CommandClass, second: CommandClass): CommandClass {
  if (rank[second] > rank[first]) return second;
  if (rank[second] === rank[first] && first === 'unknown') return second;
  return first;
}

/** Merges verdicts: the most severe class, every warning without duplicates, the first refusal. */
export function combineVerdicts(verdicts: readonly Verdict[]): Verdict {
  let type: CommandClass = 'read';
  let refusal: string | undefined;
  const warnings = new Set<string>();
  for (const verdict of verdicts) {
    type = moreSevere(type, verdict.type);
    refusal ??= verdict.refusal;
    for (const warning of verdict.warnings) warnings.add(warning);
  }
  return refusal === undefined ? { type, warnings: [...warnings] } : { type, warnings: [...warnings], refusal };
}

/** A verdict without warnings. */
export function verdict(type: CommandClass, ...warnings: string[]): Verdict {
  return { type, warnings };
}
