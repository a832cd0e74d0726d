import type { Clock } from '../clock.js';
import type { LlmPrice } from '../config/schema.js';
import type { LlmUsage } from '../llm/types.js';
import type { UsageFilter, UsageGroup, UsageSource, UsageStore, UsageSums } from '../store/usage-store.js';
import { costOf } from './prices.js';
import { utcDayOf } from './utc-day.js';

/** One model call to count. */
export interface UsageEntry {
  user: string;
  /** The cluster the call was about (a chat's cluster); absent: none in particular. */
  cluster?: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** The part of `inputTokens` read from the provider's prompt cache. */
  cachedInputTokens: number;
  source: UsageSource;
  /** The chat session or investigation the call belongs to. */
  sessionId?: string;
}

/** Where recorded tokens and cost also go (the /metrics counters). */
export interface UsageObserver {
  observe(entry: UsageEntry, cost: number): void;
}

export interface UsageRecorderOptions {
  store: UsageStore;
  prices: Readonly<Record<string, LlmPrice>>;
  clock: Clock;
  observer?: UsageObserver;
}

/** Whose use of today to sum: one user's, or everyone's; of one source, or all. */
export interface UsageScope {
  user?: string;
  source?: UsageSource;
}

/**
 * Counts the tokens and cost of model calls (chat turns, investigations): one row per call in the
 * usage table, priced from config `llm.prices`, counted in /metrics. Built once in the composition root.
 */
export class UsageRecorder {
  constructor(private readonly options: UsageRecorderOptions) {}

  /** The cost of a call of `model` with `usage` (0 for a model without a price). */
  costOf(model: string, usage: LlmUsage): number {
    return costOf(this.options.prices, model, usage);
  }

  /** Stores one call's row (durable when this resolves) and returns its cost. */
  async record(entry: UsageEntry): Promise<{ cost: number }> {
    const cost = this.costOf(entry.model, entry);
    const now = this.options.clock();
    await this.options.store.insert({
      at: new Date(now).toISOString(),
      day: utcDayOf(now),
      username: entry.user,
      cluster: entry.cluster ?? null,
      provider: entry.provider,
      model: entry.model,
      source: entry.source,
      sessionId: entry.sessionId ?? null,
      inputTokens: entry.inputTokens,
      outputTokens: entry.outputTokens,
      cachedInputTokens: entry.cachedInputTokens,
      cost,
    });
    this.options.observer?.observe(entry, cost);
    return { cost };
  }

  /** The sums of the current UTC day (by the injected clock) for `scope`. */
  async usedToday(scope: UsageScope = {}): Promise<UsageSums> {
    return this.options.store.totals({ from: this.today(), to: this.today(), username: scope.user, source: scope.source });
  }

  /** The rows `filter` covers, summed by day, user, cluster, provider and model, with their totals (GET /api/usage). */
  async report(filter: UsageFilter): Promise<{ items: UsageGroup[]; total: number; totals: UsageSums }> {
    const scope: UsageFilter = {
      from: filter.from,
      to: filter.to,
      username: filter.username,
      cluster: filter.cluster,
      model: filter.model,
      source: filter.source,
    };
    const [items, totals] = await Promise.all([this.options.store.groups(scope), this.options.store.totals(scope)]);
    return { items, total: items.length, totals };
  }

  /** The current UTC day, YYYY-MM-DD. */
  today(): string {
    return utcDayOf(this.options.clock());
  }
}
