import type { UsageEntry } from './usage-recorder.js';

/** What the agent loop needs of usage accounting (composed in src/app/compose-pilot.ts). */
export interface UsageMeter {
  /** Throws BUDGET_EXCEEDED when the user's (or everyone's) daily chat budget is used up. */
  checkBudget(user: string): Promise<void>;
  /** Stores one call's usage; resolves to its cost. */
  record(entry: UsageEntry): Promise<{ cost: number }>;
}
