import type { UsageMeter } from '../usage/usage-meter.js';
import type { UsageEntry } from '../usage/usage-recorder.js';

/** Where an investigation's model calls are recorded: the usage table and metrics (GET /api/usage), as `investigation`. */
export interface UsageSink {
  record(entry: UsageEntry): Promise<{ cost: number }>;
}

/**
 * An investigation's usage meter: every call is stored with source `investigation` (so the chat's daily budgets never
 * count it, and GET /api/usage tells them apart); the chat budgets are not checked here, investigations have their own
 * (`investigations.daily_token_budget`, checked before a run starts).
 */
export class InvestigationUsageMeter implements UsageMeter {
  constructor(private readonly sink: UsageSink) {}

  checkBudget(): Promise<void> {
    return Promise.resolve();
  }

  record(entry: UsageEntry): Promise<{ cost: number }> {
    return this.sink.record({ ...entry, source: 'investigation' });
  }
}
