import type { SqlClient } from './sql-client.js';

/** Where a model call was made: a chat turn, or a headless investigation. */
export type UsageSource = 'chat' | 'investigation';

/** One model call's row. */
export interface UsageRow {
  /** ISO time of the call. */
  at: string;
  /** Its UTC day, YYYY-MM-DD. */
  day: string;
  username: string;
  cluster: string | null;
  provider: string;
  model: string;
  source: UsageSource;
  sessionId: string | null;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cost: number;
}

/** Which rows a query covers; every field narrows it. Days are inclusive. */
export interface UsageFilter {
  from?: string;
  to?: string;
  username?: string;
  cluster?: string;
  model?: string;
  source?: UsageSource;
}

/** The sums of a group of rows. */
export interface UsageSums {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cost: number;
}

/** The sums of one day, user, cluster, provider and model. */
export interface UsageGroup extends UsageSums {
  day: string;
  username: string;
  cluster: string | null;
  provider: string;
  model: string;
}

interface SumsRow {
  calls: number | string;
  input_tokens: number | string | null;
  output_tokens: number | string | null;
  cached_input_tokens: number | string | null;
  cost: number | string | null;
}

type GroupRow = SumsRow & { day: string; username: string; cluster: string | null; provider: string; model: string };

const sumColumns =
  'COUNT(*) AS calls, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(cached_input_tokens) AS cached_input_tokens, SUM(cost) AS cost';

/** PostgreSQL answers BIGINT sums as strings (and SUM over no rows is NULL). */
function toSums(row: SumsRow | undefined): UsageSums {
  const value = (field: keyof SumsRow): number => Number(row?.[field] ?? 0);
  return {
    calls: value('calls'),
    inputTokens: value('input_tokens'),
    outputTokens: value('output_tokens'),
    cachedInputTokens: value('cached_input_tokens'),
    cost: value('cost'),
  };
}

const filterColumns: [keyof UsageFilter, string][] = [
  ['from', 'day >= ?'],
  ['to', 'day <= ?'],
  ['username', 'username = ?'],
  ['cluster', 'cluster = ?'],
  ['model', 'model = ?'],
  ['source', 'source = ?'],
];

function whereOf(filter: UsageFilter): { where: string; params: string[] } {
  const clauses: string[] = [];
  const params: string[] = [];
  for (const [field, clause] of filterColumns) {
    const value = filter[field];
    if (value === undefined) continue;
    clauses.push(clause);
    params.push(value);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** Tokens and cost of every model call (SQLite or PostgreSQL, ADR 0032): the only SQL for `llm_usage`. */
export class UsageStore {
  constructor(private readonly database: SqlClient) {}

  async insert(row: UsageRow): Promise<void> {
    await this.database.run(
      `INSERT INTO llm_usage (at, day, username, cluster, provider, model, source, session_id, input_tokens, output_tokens, cached_input_tokens, cost)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.at,
        row.day,
        row.username,
        row.cluster,
        row.provider,
        row.model,
        row.source,
        row.sessionId,
        row.inputTokens,
        row.outputTokens,
        row.cachedInputTokens,
        row.cost,
      ],
    );
  }

  /** The sums of every row the filter covers. */
  async totals(filter: UsageFilter): Promise<UsageSums> {
    const { where, params } = whereOf(filter);
    const [row] = await this.database.query<SumsRow>(`SELECT ${sumColumns} FROM llm_usage ${where}`, params);
    return toSums(row);
  }

  /** The rows the filter covers, summed by day, user, cluster, provider and model; newest day first. */
  async groups(filter: UsageFilter): Promise<UsageGroup[]> {
    const { where, params } = whereOf(filter);
    const rows = await this.database.query<GroupRow>(
      `SELECT day, username, cluster, provider, model, ${sumColumns} FROM llm_usage ${where}
       GROUP BY day, username, cluster, provider, model ORDER BY day DESC, username, cluster, provider, model`,
      params,
    );
    return rows.map((row) => ({ day: row.day, username: row.username, cluster: row.cluster, provider: row.provider, model: row.model, ...toSums(row) }));
  }
}
