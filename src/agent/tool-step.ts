import type { AuditInput, AuditRecorder } from '../audit/types.js';
import type { Principal } from '../rbac/principal.js';
import type { LlmToolCall } from '../llm/types.js';
import { accessNeededFor, usesCluster, withRefusals } from '../tools/cluster-refusals.js';
import type { SafetyAnalyzer } from '../tools/safety/index.js';
import type { Tool, ToolClusterGateway, ToolClusterRefusal, ToolClusterSession, ToolContext, ToolMode, ToolRegistry, ToolResult } from '../tools/types.js';
import type { AgentStateMachine } from './agent-state.js';
import type { EmitEvent } from './agent-events.js';
import type { ApprovalResult, Approvals } from './approvals.js';
import type { SessionHistory, ToolStatus } from './history-entries.js';
import { analyzeCall, type AnalyzedCall } from './tool-analysis.js';
import { planToolCall } from './tool-policy.js';

/**
 * `deny` for calls refused before running and for calls during which the policy proxy refused a
 * request (even when the process exited cleanly), `allow` otherwise.
 */
function auditDecision(outcome: { status: string; refusals?: readonly unknown[] }): 'allow' | 'deny' {
  if (outcome.status === 'forbidden' || outcome.status === 'blocked') return 'deny';
  return (outcome.refusals?.length ?? 0) > 0 ? 'deny' : 'allow';
}

/** Thrown when the turn was cancelled (client gone) while a tool call was handled. */
export class TurnCancelledError extends Error {
  constructor() {
    super('the chat turn was cancelled');
    this.name = 'TurnCancelledError';
  }
}

/** What tool handling needs from the service. */
export interface ToolStepDeps {
  tools: ToolRegistry;
  safety: SafetyAnalyzer;
  approvals: Approvals;
  audit: AuditRecorder;
  /** The impersonated cluster identity of a caller (undefined: the service's own). */
  identityOf(principal: Principal): string | undefined;
  /** For the cancelled-result text. */
  approvalTimeoutMs: number;
  /** Opens the per-call policy proxy of kubectl and bash calls (without it they get no cluster). */
  cluster?: ToolClusterGateway;
}

/** One turn as tool handling sees it. */
export interface ToolTurn {
  principal: Principal;
  history: SessionHistory;
  emit: EmitEvent;
  signal: AbortSignal;
  machine: AgentStateMachine;
  autoApproveReadonly: boolean;
  /** Audit fields of the chat request (user, source, request id). */
  auditFields: Pick<AuditInput, 'user' | 'source' | 'requestId'>;
}

interface Outcome {
  status: ToolStatus;
  result: string;
  /** Requests the policy proxy refused during the run. */
  refusals?: readonly ToolClusterRefusal[];
}

function decisionOutcome(decision: ApprovalResult, timeoutMs: number): Outcome {
  if (decision.outcome === 'timeout') {
    return { status: 'timeout', result: `Cancelled: no approval within ${Math.round(timeoutMs / 1000)}s; the command was not run.` };
  }
  return { status: 'rejected', result: 'Cancelled: the user rejected this command; it was not run.' };
}

const decisionTrigger = { approved: 'approved', rejected: 'rejected', timeout: 'approval_timed_out' } as const;

/**
 * Handles one tool call of a model response, from `Running` back to `Running`: safety analysis,
 * the role policy, the approval wait when needed, the run, and the result — each step appended
 * to the session history and sent as an event. Every outcome is a result the model reads.
 */
export class ToolStep {
  constructor(private readonly deps: ToolStepDeps) {}

  async handle(turn: ToolTurn, call: LlmToolCall, first: boolean): Promise<void> {
    turn.machine.fire(first ? 'tool_calls_received' : 'tool_call_next');
    const tool = this.deps.tools.get(call.name);
    const analyzed = analyzeCall(this.deps.safety, tool, call);
    const plan = planToolCall({
      role: turn.principal.role,
      toolFound: tool !== undefined,
      toolName: call.name,
      report: analyzed.report,
      autoApproveReadonly: turn.autoApproveReadonly,
    });
    // The approval is registered (stored, with a shared store) before the request is sent, so an instant decision finds it.
    if (plan.action === 'ask') await this.deps.approvals.register(this.approvalRequest(turn, call));
    const decision = plan.action === 'ask' ? this.waitForDecision(turn, call) : undefined;
    await this.request(turn, call, analyzed, plan.action === 'ask');
    if (plan.action === 'refuse') {
      turn.machine.fire('tool_refused');
      this.auditExecute(turn, call, analyzed.command, { status: plan.status, result: plan.reason });
      return await this.finish(turn, call, { status: plan.status, result: plan.reason });
    }
    if (decision && !(await this.approved(turn, call, analyzed.command, await decision))) return;
    if (plan.action === 'run') turn.machine.fire('tool_auto_run');
    // Only a call a human approved may change anything; every other call runs read-only at the proxy.
    await this.execute(turn, call, tool as Tool, { command: analyzed.command, mode: decision ? 'approved' : 'read' });
  }

  private approvalRequest(turn: ToolTurn, call: LlmToolCall): { id: string; owner: string; sessionId: string } {
    return { id: call.id, owner: turn.principal.username, sessionId: turn.history.sessionId };
  }

  private waitForDecision(turn: ToolTurn, call: LlmToolCall): Promise<ApprovalResult> {
    turn.machine.fire('approval_needed');
    return this.deps.approvals.wait(this.approvalRequest(turn, call), turn.signal);
  }

  private async request(turn: ToolTurn, call: LlmToolCall, analyzed: AnalyzedCall, requiresApproval: boolean): Promise<void> {
    const { report } = analyzed;
    await turn.history.append({
      kind: 'tool_request',
      id: call.id,
      tool: call.name,
      command: analyzed.command,
      type: report.type,
      requiresApproval,
      blocked: report.blocked,
      warnings: report.warnings,
    });
    turn.emit({
      event: 'tool_request',
      data: {
        tool: call.name,
        command: analyzed.command,
        id: call.id,
        type: report.type,
        requiresApproval: requiresApproval,
        blocked: report.blocked,
        warnings: report.warnings,
      },
    });
  }

  /** Records the decision; false (after recording the cancelled result) unless approved. */
  private async approved(turn: ToolTurn, call: LlmToolCall, command: string, decision: ApprovalResult): Promise<boolean> {
    if (decision.outcome === 'cancelled') throw new TurnCancelledError();
    await turn.history.append({ kind: 'decision', id: call.id, outcome: decision.outcome, by: decision.by });
    turn.machine.fire(decisionTrigger[decision.outcome]);
    if (decision.outcome === 'approved') return true;
    if (decision.outcome === 'timeout') {
      this.deps.audit.record({
        ...turn.auditFields,
        action: 'reject',
        resource: `tool/${call.name}`,
        details: { id: call.id, command, reason: 'timeout' },
        decision: 'deny',
        outcome: 'timeout',
      });
    }
    await this.finish(turn, call, decisionOutcome(decision, this.deps.approvalTimeoutMs));
    return false;
  }

  private async execute(turn: ToolTurn, call: LlmToolCall, tool: Tool, run: { command: string; mode: ToolMode }): Promise<void> {
    const context: ToolContext = {
      principal: turn.principal,
      sessionId: turn.history.sessionId,
      impersonate: this.deps.identityOf(turn.principal),
      mode: run.mode,
      signal: turn.signal,
    };
    const { result, refusals } = await this.runInSession(tool, call, context);
    if (turn.signal.aborted) throw new TurnCancelledError();
    const outcome: Outcome = { status: result.isError ? 'error' : 'executed', result: result.output, refusals };
    this.auditExecute(turn, call, run.command, outcome);
    await this.finish(turn, call, outcome);
  }

  /** Runs the tool; kubectl and bash inside a policy proxy session that is closed afterwards (also on error or abort). */
  private async runInSession(tool: Tool, call: LlmToolCall, context: ToolContext): Promise<{ result: ToolResult; refusals: readonly ToolClusterRefusal[] }> {
    const gateway = this.deps.cluster;
    if (!gateway || !usesCluster(tool.definition.type)) return { result: await tool.run(call.arguments, context), refusals: [] };
    let session: ToolClusterSession;
    try {
      session = await gateway.open({ principal: context.principal, mode: context.mode ?? 'read', signal: context.signal });
    } catch {
      return { result: { output: 'could not open the cluster session (policy proxy) for this call; the command was not run', isError: true }, refusals: [] };
    }
    try {
      const result = await tool.run(call.arguments, { ...context, cluster: session });
      const refusals = session.refusals();
      return { result: withRefusals(result, refusals), refusals };
    } finally {
      await session.close();
    }
  }

  private auditExecute(turn: ToolTurn, call: LlmToolCall, command: string, outcome: Outcome): void {
    const refused = outcome.status === 'forbidden' || outcome.status === 'blocked';
    this.deps.audit.record({
      ...turn.auditFields,
      action: 'execute',
      resource: `tool/${call.name}`,
      details: {
        command,
        tool: call.name,
        id: call.id,
        session_id: turn.history.sessionId,
        status: outcome.status,
        ...(refused ? { reason: outcome.result.slice(0, 300) } : {}),
        ...(outcome.refusals?.length ? { refusals: outcome.refusals } : {}),
      },
      decision: auditDecision(outcome),
      outcome: outcome.status === 'executed' ? 'success' : outcome.status === 'error' ? `error: ${outcome.result.slice(0, 200)}` : outcome.status,
    });
  }

  /** Records and sends the result; a call the policy refused with `approval_required` carries the access request that would lift it. */
  private async finish(turn: ToolTurn, call: LlmToolCall, outcome: Outcome): Promise<void> {
    const accessNeeded = accessNeededFor(outcome.refusals ?? []);
    const access = accessNeeded ? { accessNeeded } : {};
    await turn.history.append({ kind: 'tool_result', id: call.id, tool: call.name, status: outcome.status, result: outcome.result, ...access });
    turn.emit({ event: 'tool_execution', data: { id: call.id, result: outcome.result, status: outcome.status, ...access } });
  }
}
