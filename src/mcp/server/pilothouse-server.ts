import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AuditRecorder } from '../../audit/types.js';
import type { Principal } from '../../rbac/principal.js';
import type { SafetyAnalyzer } from '../../tools/safety/index.js';
import { auditedCommand, decide, type ServerPolicy } from './call-gate.js';
import type { ToolExecutor } from './tool-executor.js';
import { serverToolSpecs, type ServerToolSpec } from './tool-specs.js';
import { handleReadCall, serverReadTools } from './read-tools.js';
import type { Tool } from '../../tools/types.js';

/** Everything the server mode's tool calls need. */
export interface ServerModeDeps {
  analyzer: SafetyAnalyzer;
  policy: ServerPolicy;
  executor: ToolExecutor;
  /** The chat's read-only `problems` and `promql` tools, run as the caller (absent: not offered). */
  readTools?: readonly Tool[];
  audit: AuditRecorder;
  /**
   * Who calls: over HTTP the bearer token's principal (its user, role, per-user and resource-level
   * roles); over stdio the configured `mcp_server.identity` (src/app/compose-mcp.ts). The policy
   * decides every cluster request of the call for it, and the audit names it.
   */
  caller: Principal;
  version: string;
  /** The home cluster's name (`cluster.name`): the target of calls that name none, in the audit row. */
  homeCluster: string;
}

function textResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text: text === '' ? '(no output)' : text }], isError };
}

/** One call: plan, safety gate, run, audit (`execute`, decision deny for refusals). */
async function handleCall(deps: ServerModeDeps, spec: ServerToolSpec, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
  const plan = spec.plan(args as never);
  const command = auditedCommand(plan);
  const entry = {
    user: deps.caller.username,
    action: 'execute' as const,
    resource: `tool/${spec.name}`,
    details: { command, tool: spec.name },
    cluster: plan.cluster ?? deps.homeCluster,
    source: 'mcp',
  };
  const decision = await decide(deps.analyzer, deps.policy, plan);
  if (!decision.allowed) {
    deps.audit.record({ ...entry, decision: 'deny', outcome: decision.reason });
    return textResult(decision.reason, true);
  }
  const result = await deps.executor.run(plan, deps.caller, signal);
  const details = result.refusals.length > 0 ? { ...entry.details, refusals: result.refusals } : entry.details;
  deps.audit.record({ ...entry, details, decision: 'allow', outcome: result.isError ? `error: ${result.output.slice(0, 500)}` : 'success' });
  return textResult(result.output, result.isError);
}

/**
 * The `--mcp` server: the SDK's McpServer with exactly the server-mode tools and the chat's read tools. The SDK negotiates the
 * protocol version (2024-11-05 answered with 2024-11-05), answers unknown methods with -32601, and
 * turns invalid arguments into `isError` results.
 */
export function createPilothouseMcpServer(deps: ServerModeDeps): McpServer {
  const server = new McpServer({ name: 'pilothouse', version: deps.version }, { capabilities: { tools: {} } });
  for (const spec of serverToolSpecs) {
    server.registerTool(
      spec.name,
      { description: spec.description, inputSchema: spec.inputShape, annotations: spec.annotations },
      (args: Record<string, unknown>, extra) => handleCall(deps, spec, args, extra.signal),
    );
  }
  for (const read of serverReadTools(deps.readTools ?? [])) {
    server.registerTool(
      read.name,
      { description: read.description, inputSchema: read.inputShape, annotations: read.annotations },
      (args: Record<string, unknown>, extra) => handleReadCall(deps, read, args, extra.signal),
    );
  }
  return server;
}
