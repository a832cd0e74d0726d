import type { AuditInput, AuditRecorder } from '../audit/types.js';
import { isAppError } from '../errors.js';
import type { ManagedObject } from '../kube/managed-objects.js';
import type { Principal } from '../rbac/principal.js';
import type { LivenessSource } from '../auth/sessions/session-streams.js';
import type { LlmToolCall } from '../llm/types.js';
import { accessNeededFor, namesCluster, usesCluster, withRefusals } from '../tools/cluster-refusals.js';
import type { SafetyAnalyzer } from '../tools/safety/index.js';
import type { Tool, ToolClusterGateway, ToolClusterRefusal, ToolClusterSession, ToolContext, ToolMode, ToolRegistry, ToolResult } from '../tools/types.js';
import type { AgentStateMachine } from './agent-state.js';
import type { EmitEvent } from './history/agent-events.js';
import type { ApprovalRequest, ApprovalResult, Approvals } from './approvals/approvals.js';
import { singleClusterDirectory, toolTarget, type ClusterDirectory, type ToolTarget } from './cluster-directory.js';
import type { ChatContext, SessionHistory, ToolRequestFields, ToolStatus } from './history/history-entries.js';
import { analyzeCall, type AnalyzedCall } from './tool-analysis.js';
import { planToolCall, type ToolPlan } from './tool-policy.js';

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
  /** For the cancelled-result text. */
  approvalTimeoutMs: number;
  /** Opens the per-call policy proxy of kubectl and bash calls on the cluster they name (without it they get no cluster). */
  proxyGateway?: ToolClusterGateway;
  /**
   * Whether the turn's principal still speaks for its user (session held, same role and roles: src/auth/sessions/sessions.ts),
   * asked before each call runs, so a call approved after a role change (also on another replica) never runs with the old one.
   */
  sessions?: Pick<LivenessSource, 'liveness'>;
  /**
   * The GitOps managers (Argo CD, Flux) of the objects a call that waits for approval names, read as the caller:
   * its card then says that a manual change will be reverted by that controller.
   */
  managedObjects?: (request: { principal: Principal; clusterName?: string; command: string }) => Promise<ManagedObject[]>;
}

/** One turn as tool handling sees it. */
export interface ToolTurn {
  principal: Principal;
  history: SessionHistory;
  emit: EmitEvent;
  signal: AbortSignal;
  machine: AgentStateMachine;
  autoApproveReadonly: boolean;
  /** What the user is looking at; its `cluster` is where kubectl and bash calls go unless they name another. */
  context: ChatContext;
  /** The clusters a call may name (ADR 0035); absent: one cluster, named `home`. */
  clusters?: ClusterDirectory;
  /** Audit fields of the chat request (user, source, request id). */
  auditFields: Pick<AuditInput, 'user' | 'source' | 'requestId'>;
  /** Headless and read-only (an investigation): a call that would need approval is refused, never asked for, and `details` join every audit row. */
  readOnly?: { details: Record<string, unknown> };
}

/** The refusal of a call a read-only turn may not make (it would need a person's approval). */
const readOnlyRefusal: ToolPlan = {
  action: 'refuse',
  status: 'forbidden',
  reason: 'Forbidden: this investigation is read-only; a change is never run. Suggest it in conclude instead; it was not run.',
};

/** A read-only turn asks nobody: a read that would wait for approval runs read-only, anything else is refused. */
function readOnlyPlan(plan: ToolPlan, isReadOnly: boolean): ToolPlan {
  if (plan.action !== 'ask') return plan;
  return isReadOnly ? { action: 'run' } : readOnlyRefusal;
}

/** A call as handled: the model's call, its analysis and, for kubectl and bash, the cluster it targets. */
interface HandledCall extends LlmToolCall {
  analyzed: AnalyzedCall;
  cluster?: string;
}

interface Outcome {
  status: ToolStatus;
  result: string;
  /** Requests the policy proxy refused during the run. */
  refusals?: readonly ToolClusterRefusal[];
}

/** The cluster a call goes to; undefined for tools that reach no cluster and for an unknown name. */
function targetName(target: ToolTarget | undefined): string | undefined {
  return target?.ok ? target.cluster : undefined;
}

/** The audit row's `cluster`: the cluster a kubectl or bash call went to (absent for tools that reach no cluster). */
function clusterField(call: HandledCall): { cluster?: string } {
  return call.cluster === undefined ? {} : { cluster: call.cluster };
}

/**
 * Why no session opened, for the model: the gateway's own sentence when it is an AppError (unknown or
 * unreachable cluster: names only, no address or credential), else a fixed one.
 */
function sessionFailure(cluster: string | undefined, error: unknown): string {
  const where = cluster === undefined ? '' : ` on cluster "${cluster}"`;
  const why = isAppError(error) && error.code !== 'INTERNAL' ? `: ${error.message}` : '';
  return `could not open the cluster session (policy proxy)${where} for this call${why}; the command was not run`;
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

  async handle(turn: ToolTurn, modelCall: LlmToolCall, first: boolean): Promise<void> {
    turn.machine.fire(first ? 'tool_calls_received' : 'tool_call_next');
    const tool = this.deps.tools.get(modelCall.name);
    const target = this.target(turn, tool, modelCall);
    const call: HandledCall = { ...modelCall, analyzed: analyzeCall(this.deps.safety, tool, modelCall), cluster: targetName(target) };
    const plan = this.plan(turn, call, tool, target);
    // The approval is registered (stored, with a shared store) before the request is sent, so an instant decision finds it.
    if (plan.action === 'ask') await this.deps.approvals.register(this.approvalRequest(turn, call));
    const decision = plan.action === 'ask' ? this.waitForDecision(turn, call) : undefined;
    await this.request(turn, call, plan.action === 'ask');
    if (plan.action === 'refuse') {
      turn.machine.fire('tool_refused');
      this.auditExecute(turn, call, { status: plan.status, result: plan.reason });
      return await this.finish(turn, call, { status: plan.status, result: plan.reason });
    }
    if (decision && !(await this.approved(turn, call, await decision))) return;
    if (plan.action === 'run') turn.machine.fire('tool_auto_run');
    // Only a call a human approved may change anything; every other call runs read-only at the proxy.
    await this.execute(turn, call, tool as Tool, decision ? 'approved' : 'read');
  }

  /** Where a kubectl or bash call goes (its `cluster` argument, else the chat's cluster); undefined for other tools. */
  private target(turn: ToolTurn, tool: Tool | undefined, call: LlmToolCall): ToolTarget | undefined {
    if (!tool || !(namesCluster(tool.definition.type) || tool.definition.type === 'problems')) return undefined;
    const clusters = turn.clusters ?? singleClusterDirectory();
    return toolTarget(clusters, call.arguments.cluster, turn.context.cluster ?? clusters.home);
  }

  /** The role rules first; a call they let through that names an unknown cluster fails before anyone is asked. */
  private plan(turn: ToolTurn, call: HandledCall, tool: Tool | undefined, target: ToolTarget | undefined): ToolPlan {
    const plan = planToolCall({
      role: turn.principal.role,
      toolFound: tool !== undefined,
      toolName: call.name,
      report: call.analyzed.report,
      autoApproveReadonly: turn.autoApproveReadonly,
    });
    const planned = turn.readOnly ? readOnlyPlan(plan, call.analyzed.report.isReadOnly) : plan;
    if (planned.action === 'refuse' || target === undefined || target.ok) return planned;
    return { action: 'refuse', status: 'error', reason: target.reason };
  }

  /** The request a human decides: the call, whose chat it is and the cluster it goes to (the decision's audit row names it). */
  private approvalRequest(turn: ToolTurn, call: HandledCall): ApprovalRequest {
    return { id: call.id, owner: turn.principal.username, sessionId: turn.history.sessionId, ...clusterField(call) };
  }

  private waitForDecision(turn: ToolTurn, call: HandledCall): Promise<ApprovalResult> {
    turn.machine.fire('approval_needed');
    return this.deps.approvals.wait(this.approvalRequest(turn, call), turn.signal);
  }

  /** The GitOps managers of what a call waiting for approval names ([] when none, or the lookup fails). */
  private async managed(turn: ToolTurn, call: HandledCall, asks: boolean): Promise<{ managedBy?: ManagedObject[] }> {
    if (!asks || !this.deps.managedObjects || call.cluster === undefined) return {};
    const request = { principal: turn.principal, clusterName: call.cluster, command: call.analyzed.command };
    const found = await this.deps.managedObjects(request).catch(() => []);
    return found.length ? { managedBy: found } : {};
  }

  private async request(turn: ToolTurn, call: HandledCall, requiresApproval: boolean): Promise<void> {
    const { report, command } = call.analyzed;
    const cluster = call.cluster === undefined ? {} : { cluster: call.cluster };
    const managed = await this.managed(turn, call, requiresApproval && !report.blocked);
    const fields: ToolRequestFields = {
      tool: call.name,
      command,
      id: call.id,
      type: report.type,
      requiresApproval,
      blocked: report.blocked,
      warnings: report.warnings,
      ...cluster,
      ...managed,
    };
    await turn.history.append({ kind: 'tool_request', ...fields });
    turn.emit({
      event: 'tool_request',
      data: {
        ...fields,
        // How long the call waits for a decision before it is rejected (clients count it down).
        ...(requiresApproval && !report.blocked ? { approvalTimeoutSeconds: Math.round(this.deps.approvalTimeoutMs / 1000) } : {}),
      },
    });
  }

  /** Records the decision; false (after recording the cancelled result) unless approved. */
  private async approved(turn: ToolTurn, call: HandledCall, decision: ApprovalResult): Promise<boolean> {
    if (decision.outcome === 'cancelled') throw new TurnCancelledError();
    await turn.history.append({ kind: 'decision', id: call.id, outcome: decision.outcome, by: decision.by });
    turn.machine.fire(decisionTrigger[decision.outcome]);
    if (decision.outcome === 'approved' || decision.outcome === 'rejected') this.auditDecision(turn, call, decision);
    if (decision.outcome === 'approved') return true;
    if (decision.outcome === 'timeout') {
      this.deps.audit.record({
        ...turn.auditFields,
        action: 'reject',
        resource: `tool/${call.name}`,
        details: { id: call.id, command: call.analyzed.command, reason: 'timeout' },
        ...clusterField(call),
        decision: 'deny',
        outcome: 'timeout',
      });
    }
    await this.finish(turn, call, decisionOutcome(decision, this.deps.approvalTimeoutMs));
    return false;
  }

  /**
   * A human's decision, recorded like a timeout's: `approve` (allow) or `reject` (deny), resource `tool/<name>`, the
   * command, by whom (the owner or an admin), on the call's cluster (issue 39: one shape for every decision).
   */
  private auditDecision(turn: ToolTurn, call: HandledCall, decision: ApprovalResult): void {
    const approved = decision.outcome === 'approved';
    this.deps.audit.record({
      ...turn.auditFields,
      user: decision.by ?? turn.auditFields.user,
      action: approved ? 'approve' : 'reject',
      resource: `tool/${call.name}`,
      details: {
        id: call.id,
        command: call.analyzed.command,
        session_id: turn.history.sessionId,
        owner: turn.principal.username,
        ...(approved ? {} : { reason: 'rejected' }),
      },
      ...clusterField(call),
      decision: approved ? 'allow' : 'deny',
      outcome: approved ? 'approved' : 'rejected',
    });
  }

  private async execute(turn: ToolTurn, call: HandledCall, tool: Tool, mode: ToolMode): Promise<void> {
    await this.requireCurrentPrincipal(turn, call);
    const context: ToolContext = {
      principal: turn.principal,
      sessionId: turn.history.sessionId,
      mode,
      signal: turn.signal,
      ...(call.cluster === undefined ? {} : { clusterName: call.cluster }),
    };
    const { result, refusals } = await this.runInSession(tool, call, context);
    if (turn.signal.aborted) throw new TurnCancelledError();
    const outcome: Outcome = { status: result.isError ? 'error' : 'executed', result: result.output, refusals };
    this.auditExecute(turn, call, outcome);
    await this.finish(turn, call, outcome);
  }

  /**
   * Runs the tool; kubectl and bash inside a policy proxy session on the call's cluster (that cluster's policy,
   * the caller's identity there), closed afterwards (also on error or abort).
   */
  private async runInSession(tool: Tool, call: HandledCall, context: ToolContext): Promise<{ result: ToolResult; refusals: readonly ToolClusterRefusal[] }> {
    const gateway = this.deps.proxyGateway;
    if (!gateway || !usesCluster(tool.definition.type)) return { result: await tool.run(call.arguments, context), refusals: [] };
    let session: ToolClusterSession;
    try {
      session = await gateway.open({ principal: context.principal, mode: context.mode ?? 'read', signal: context.signal, clusterName: call.cluster });
    } catch (error) {
      return { result: { output: sessionFailure(call.cluster, error), isError: true }, refusals: [] };
    }
    try {
      const result = await tool.run(call.arguments, { ...context, proxySession: session });
      const refusals = session.refusals();
      return { result: withRefusals(result, refusals), refusals };
    } finally {
      await session.close();
    }
  }

  /**
   * A principal that no longer holds (role changed, session ended since the turn began) runs nothing: the call is
   * recorded as not run (audited as a refusal) and the turn ends.
   */
  private async requireCurrentPrincipal(turn: ToolTurn, call: HandledCall): Promise<void> {
    const liveness = await this.deps.sessions?.liveness(turn.principal);
    if (!liveness || !('ended' in liveness)) return;
    const { reason } = liveness.ended;
    this.deps.audit.record({
      ...turn.auditFields,
      action: 'reject',
      resource: `tool/${call.name}`,
      details: { id: call.id, command: call.analyzed.command, reason },
      ...clusterField(call),
      decision: 'deny',
      outcome: `refused: ${reason}`,
    });
    const result = `Cancelled: ${liveness.ended.message} (${reason}) since this chat turn began; the command was not run.`;
    await this.finish(turn, call, { status: 'rejected', result });
    throw new TurnCancelledError();
  }

  private auditExecute(turn: ToolTurn, call: HandledCall, outcome: Outcome): void {
    const refused = outcome.status === 'forbidden' || outcome.status === 'blocked';
    this.deps.audit.record({
      ...turn.auditFields,
      action: 'execute',
      resource: `tool/${call.name}`,
      details: {
        ...turn.readOnly?.details,
        command: call.analyzed.command,
        tool: call.name,
        id: call.id,
        session_id: turn.history.sessionId,
        status: outcome.status,
        ...(refused ? { reason: outcome.result.slice(0, 300) } : {}),
        ...(outcome.refusals?.length ? { refusals: outcome.refusals } : {}),
      },
      ...clusterField(call),
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
