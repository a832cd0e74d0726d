import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AuditRecorder } from '../../audit/types.js';
import type { Principal } from '../../rbac/principal.js';
import type { Tool } from '../../tools/types.js';

/** The input of each read tool as the MCP SDK lists it (the chat's tools declare the same fields as JSON Schema). */
const readToolShapes: Readonly<Record<string, z.ZodRawShape>> = {
  problems: {
    namespace: z.string().min(1).optional().describe('Only problems of objects in this namespace'),
    kind: z.string().min(1).optional().describe('Only problems of this kind (Pod, Deployment, Service, …)'),
    name: z.string().min(1).optional().describe("Only problems of the object (or its owner's) with this name"),
  },
  promql: {
    query: z.string().min(1).max(20_000).describe('A PromQL expression, e.g. `sum by (pod) (rate(container_cpu_usage_seconds_total[5m]))`'),
    range: z.string().optional().describe('Look back this long, ending now (e.g. `1h`, `24h`, at most `14d`); absent: the value now'),
    step: z.string().optional().describe('Resolution of a range (e.g. `1m`); absent: about 60 points'),
  },
};

const cluster = z.string().min(1).max(63).optional().describe('The cluster to read, by name (cluster.name or clusters[].name); default: the home cluster');

/** A read-only tool of the chat offered by server mode too: its name, description and input, and the tool itself. */
export interface ServerReadTool {
  name: string;
  description: string;
  inputShape: z.ZodRawShape;
  annotations: { readOnlyHint: true; destructiveHint: false; idempotentHint: true; openWorldHint: false };
  tool: Tool;
}

/** The chat's read-only tools (`problems`, `promql`) as server-mode tools; each takes `cluster` like the others. */
export function serverReadTools(tools: readonly Tool[]): ServerReadTool[] {
  return tools.map((tool) => {
    const shape = readToolShapes[tool.definition.name];
    if (!shape || !tool.definition.readOnly) throw new Error(`server mode offers no tool "${tool.definition.name}"`);
    return {
      name: tool.definition.name,
      description: tool.definition.description,
      inputShape: { ...shape, cluster },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      tool,
    };
  });
}

/** What one read call needs: the caller, the audit, the home cluster's name. */
export interface ReadCallDeps {
  caller: Principal;
  audit: AuditRecorder;
  homeCluster: string;
}

/** One read call: run as the caller (their view of the cluster the call names), audited as an `execute` row. */
export async function handleReadCall(deps: ReadCallDeps, read: ServerReadTool, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
  const clusterName = typeof args.cluster === 'string' ? args.cluster : undefined;
  const command = read.tool.commandLine(args);
  const result = await read.tool.run(args, { principal: deps.caller, mode: 'read', clusterName, signal });
  deps.audit.record({
    user: deps.caller.username,
    action: 'execute',
    resource: `tool/${read.name}`,
    details: { command, tool: read.name },
    cluster: clusterName ?? deps.homeCluster,
    source: 'mcp',
    decision: 'allow',
    outcome: result.isError ? `error: ${result.output.slice(0, 500)}` : 'success',
  });
  return { content: [{ type: 'text', text: result.output === '' ? '(no output)' : result.output }], isError: result.isError };
}
