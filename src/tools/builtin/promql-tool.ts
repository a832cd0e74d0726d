import { z } from 'zod';
import type { Principal } from '../../rbac/principal.js';
import type { Tool, ToolContext, ToolResult } from '../types.js';
import { clusterArgument, errorResult, inputSchemaOf, parseInput } from './tool-input.js';

/** One query of the promql tool: instant (`range` absent) or over the last `range` ending now. */
export interface PromqlToolQuery {
  query: string;
  range?: string;
  step?: string;
}

/** Prometheus' answer as the runner hands it back. */
export interface PromqlToolAnswer {
  resultType: string;
  result: unknown;
}

/**
 * Runs a query for the tool on the named cluster (absent: the home cluster) as the caller may read it: the
 * caller's namespaces enforced inside the query, bounded, audited as a `query` row (src/prometheus, composed in
 * src/app). Rejects with an error whose message the model reads.
 */
export interface PromqlRunner {
  run(principal: Principal, clusterName: string | undefined, query: PromqlToolQuery): Promise<PromqlToolAnswer>;
}

export interface PromqlToolOptions {
  runner: PromqlRunner;
  /** Rows of the table the model reads at most (the rest is counted). */
  maxRows?: number;
}

const input = z.object({
  query: z.string().min(1).max(20_000).describe('A PromQL expression, e.g. `sum by (pod) (rate(container_cpu_usage_seconds_total{namespace="shop"}[5m]))`.'),
  range: z.string().optional().describe('Look back this long, ending now (e.g. `1h`, `24h`, at most `14d`); absent: the value now.'),
  step: z.string().optional().describe('Resolution of a range (e.g. `1m`); absent: about 60 points.'),
  cluster: clusterArgument,
});

interface Sample {
  metric?: Record<string, string>;
  value?: [number, string];
  values?: [number, string][];
}

const labelsOf = (metric: Record<string, string> | undefined): string =>
  `{${Object.entries(metric ?? {})
    .map(([key, value]) => `${key}="${value}"`)
    .join(', ')}}`;

/** A series of a range answer as `last, min, max, points`. */
function rangeRow(sample: Sample): string {
  const numbers = (sample.values ?? []).map(([, value]) => Number(value));
  const last = numbers.at(-1);
  return `${labelsOf(sample.metric)} | ${String(last)} | ${String(Math.min(...numbers))} | ${String(Math.max(...numbers))} | ${numbers.length}`;
}

/** Prometheus' answer as a table the model can read, at most `maxRows` series. */
export function answerTable(answer: PromqlToolAnswer, maxRows: number): string {
  if (!Array.isArray(answer.result)) return `${answer.resultType}: ${JSON.stringify(answer.result)}`;
  const samples = answer.result as Sample[];
  if (samples.length === 0) return `${answer.resultType}: no series (the query matched nothing you may read)`;
  const matrix = answer.resultType === 'matrix';
  const header = matrix ? 'SERIES | LAST | MIN | MAX | POINTS' : 'SERIES | VALUE';
  const rows = samples.slice(0, maxRows).map((sample) => (matrix ? rangeRow(sample) : `${labelsOf(sample.metric)} | ${sample.value?.[1] ?? ''}`));
  const more = samples.length > maxRows ? [`… ${samples.length - maxRows} more series not shown: aggregate the query (sum by …) to see them`] : [];
  return [`${answer.resultType}: ${samples.length} series`, header, ...rows, ...more].join('\n');
}

/**
 * `promql`: read-only PromQL on a cluster's Prometheus (issue 36) with the same rules as POST
 * /api/prometheus/query: the caller's namespaces are enforced inside the query, answers are bounded and
 * summarised as a table. Offered when the service composes a runner.
 */
export function createPromqlTool(options: PromqlToolOptions): Tool {
  const maxRows = options.maxRows ?? 50;
  return {
    definition: {
      name: 'promql',
      description:
        "Query the cluster's Prometheus (usage history: CPU, memory, network, restarts over time) with PromQL; read-only. You only see series of the namespaces you may list pods in. `range` looks back from now.",
      inputSchema: inputSchemaOf(input),
      type: 'promql',
      readOnly: true,
      destructive: false,
    },
    commandLine: (args) => `promql ${String(args.query ?? '')}${typeof args.range === 'string' ? ` [${args.range}]` : ''}`,
    async run(args, context: ToolContext): Promise<ToolResult> {
      const parsed = parseInput(input, args);
      if (!parsed.ok) return parsed.result;
      const { query, range, step } = parsed.value;
      try {
        const answer = await options.runner.run(context.principal, context.clusterName, { query, range, step });
        return { output: answerTable(answer, maxRows), isError: false };
      } catch (error) {
        return errorResult(`the query was not run: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
