import type { Principal } from '../../rbac/principal.js';
import type { Tool, ToolResult } from '../types.js';

/** What the problems tool asks: the caller, the cluster (absent: home) and the filters. */
export interface ProblemsRequest {
  principal: Principal;
  clusterName?: string;
  namespace?: string;
  kind?: string;
  name?: string;
}

/** The findings the caller may see on a cluster (src/problems, the same visibility as GET /api/problems). */
export interface ProblemsReader {
  read(request: ProblemsRequest): Promise<{ items: unknown[]; total: number; counts: Record<string, number> }>;
}

/** At most this many findings go back to the model (the counts and total still cover them all). */
const maxItems = 50;

const stringProperty = (description: string): { type: 'string'; description: string } => ({ type: 'string', description });

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The read-only `problems` tool: the live findings of a cluster (what is broken, with its evidence and a
 * read-only next step), as the caller may see them. It reaches no cluster itself: it reads the service's
 * problems engine through `reader`.
 */
export function createProblemsTool(reader: ProblemsReader): Tool {
  return {
    definition: {
      name: 'problems',
      type: 'problems',
      readOnly: true,
      destructive: false,
      description:
        'List the live problems Pilothouse found in a cluster (crash loops, unschedulable pods, Services without endpoints, failing rollouts, …), critical first, each with its evidence and a read-only next step. Start here before running kubectl.',
      inputSchema: {
        type: 'object',
        properties: {
          namespace: stringProperty('Only problems of objects in this namespace'),
          kind: stringProperty('Only problems of this kind (Pod, Deployment, Service, …)'),
          name: stringProperty("Only problems of the object (or its owner's) with this name"),
          cluster: stringProperty("The cluster, by name (the clusters are listed in the system prompt); default: the chat's cluster"),
        },
        additionalProperties: false,
      },
    },
    commandLine: (args) => {
      const parts = ['problems', ...['namespace', 'kind', 'name'].flatMap((key) => (text(args[key]) ? [`--${key}=${text(args[key])}`] : []))];
      return parts.join(' ');
    },
    run: async (args, context): Promise<ToolResult> => {
      try {
        const request = {
          principal: context.principal,
          clusterName: context.clusterName,
          namespace: text(args.namespace),
          kind: text(args.kind),
          name: text(args.name),
        };
        const answer = await reader.read(request);
        const items = answer.items.slice(0, maxItems);
        const more = answer.total > items.length ? { shown: items.length, note: `${answer.total - items.length} more; narrow by namespace, kind or name` } : {};
        return { output: JSON.stringify({ total: answer.total, counts: answer.counts, items, ...more }, null, 1), isError: false };
      } catch (error) {
        return { output: `could not read the problems: ${(error as Error).message}`, isError: true };
      }
    },
  };
}
