import type { AuditInput, AuditRecorder } from '../audit/types.js';
import { planToolCall } from '../agent/tool-policy.js';
import type { Investigation, SuggestedAction } from '../crds/investigation.js';
import { AppError, conflict, forbidden, notFound } from '../errors.js';
import type { Principal } from '../rbac/principal.js';
import { withRefusals } from '../tools/cluster-refusals.js';
import type { SafetyAnalyzer } from '../tools/safety/index.js';
import type { ToolClusterGateway, ToolClusterRefusal, ToolRegistry, ToolResult } from '../tools/types.js';
import type { InvestigationStore } from './investigation-store.js';

/** What approving a suggested action uses. */
export interface ActionApprovalDeps {
  store: InvestigationStore;
  tools: Pick<ToolRegistry, 'get'>;
  safety: Pick<SafetyAnalyzer, 'analyzeSync'>;
  gateway: ToolClusterGateway;
  audit: AuditRecorder;
  clock: () => number;
}

/** The outcome of an approved action. */
export interface ActionRun {
  index: number;
  command: string;
  status: 'executed' | 'error';
  output: string;
  approvedBy: string;
}

type AuditFields = Pick<AuditInput, 'user' | 'source' | 'requestId'>;

function actionAt(investigation: Investigation, index: number): SuggestedAction {
  const action = investigation.status?.suggestedActions?.[index];
  if (investigation.status?.phase !== 'Concluded' || !action) {
    throw notFound(`investigation ${investigation.metadata.name} has no suggested action ${index}`, { name: investigation.metadata.name, index });
  }
  if (action.approvedBy) throw conflict(`suggested action ${index} was already approved by ${action.approvedBy}`, { index, approvedBy: action.approvedBy });
  return action;
}

/** The execute audit row of the run: denied when the policy refused a request, the error's start as its outcome. */
function executeEntry(
  result: ToolResult,
  refusals: readonly ToolClusterRefusal[],
): Pick<AuditInput, 'action' | 'decision' | 'outcome'> & { extra: Record<string, unknown> } {
  const status = result.isError ? 'error' : 'executed';
  return {
    action: 'execute',
    decision: refusals.length ? 'deny' : 'allow',
    outcome: result.isError ? `error: ${result.output.slice(0, 200)}` : 'success',
    extra: { tool: 'kubectl', status, ...(refusals.length ? { refusals } : {}) },
  };
}

function withAction(investigation: Investigation, index: number, change: Partial<SuggestedAction>): SuggestedAction[] {
  return (investigation.status?.suggestedActions ?? []).map((action, position) => (position === index ? { ...action, ...change } : action));
}

/**
 * Runs suggested action `index` of a concluded Investigation once, as the approving caller: the chat's role rules
 * (viewer may run nothing, user no dangerous command, blocked patterns for everyone), then the kubectl tool in mode
 * `approved` through the caller's policy proxy on the investigation's cluster; audited as an approve and an execute.
 * The action is claimed first (a resourceVersion-checked status write), so a second approval answers CONFLICT.
 */
export class ActionApproval {
  constructor(private readonly deps: ActionApprovalDeps) {}

  async approve(principal: Principal, name: string, index: number, fields: AuditFields): Promise<ActionRun> {
    const investigation = await this.deps.store.get(principal, name);
    const action = actionAt(investigation, index);
    const args = { command: action.command.replace(/^\s*kubectl\s+/, ''), cluster: this.deps.store.clusterOf(investigation) };
    const report = this.deps.safety.analyzeSync('kubectl', args.command);
    const details = { investigation: name, index, command: action.command, class: report.blocked ? 'blocked' : report.type };
    const audit = (entry: Pick<AuditInput, 'action' | 'decision' | 'outcome'> & { extra?: Record<string, unknown> }): void => {
      this.deps.audit.record({
        ...fields,
        action: entry.action,
        resource: 'tool/kubectl',
        cluster: args.cluster,
        details: { ...details, ...entry.extra },
        decision: entry.decision,
        outcome: entry.outcome,
      });
    };
    const plan = planToolCall({ role: principal.role, toolFound: true, toolName: 'kubectl', report, autoApproveReadonly: false });
    if (plan.action === 'refuse') {
      audit({ action: 'approve', decision: 'deny', outcome: plan.status, extra: { reason: plan.reason } });
      throw forbidden(plan.reason, { index, reason: plan.status });
    }
    const approvedAt = new Date(this.deps.clock()).toISOString();
    await this.claim(investigation, index, { approvedBy: principal.username, approvedAt });
    audit({ action: 'approve', decision: 'allow', outcome: 'success' });
    const { result, refusals } = await this.run(principal, args);
    const status = result.isError ? 'error' : 'executed';
    audit(executeEntry(result, refusals));
    await this.record(principal, name, index, { result, refusals });
    return { index, command: action.command, status, output: result.output, approvedBy: principal.username };
  }

  /**
   * Writes the run's outcome on the action; when the policy refused the caller, the action stays open for someone
   * who may run it and the approval answers FORBIDDEN.
   */
  private async record(principal: Principal, name: string, index: number, run: { result: ToolResult; refusals: readonly ToolClusterRefusal[] }): Promise<void> {
    const latest = await this.deps.store.client.get(name);
    if (!latest) return;
    if (run.refusals.length && run.result.isError) {
      await this.deps.store.client.patchStatus(name, { suggestedActions: withAction(latest, index, { approvedBy: undefined, approvedAt: undefined }) });
      const reasons = run.refusals.map((refusal) => refusal.reason).join('; ');
      throw forbidden(`the policy refused this command for ${principal.username}: ${reasons}`, { index, refusals: run.refusals });
    }
    await this.deps.store.client.patchStatus(name, { suggestedActions: withAction(latest, index, { outcome: run.result.isError ? 'error' : 'success' }) });
  }

  /** Marks the action approved unless someone else did first (the object changed since it was read). */
  private async claim(investigation: Investigation, index: number, change: Partial<SuggestedAction>): Promise<void> {
    try {
      await this.deps.store.client.patchStatusAt(investigation.metadata.name, investigation.metadata.resourceVersion ?? '', {
        suggestedActions: withAction(investigation, index, change),
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') throw conflict(`suggested action ${index} is being approved by someone else`, { index });
      throw error;
    }
  }

  private async run(
    principal: Principal,
    args: { command: string; cluster: string },
  ): Promise<{ result: ToolResult; refusals: readonly ToolClusterRefusal[] }> {
    const tool = this.deps.tools.get('kubectl');
    if (!tool) return { result: { output: 'the kubectl tool is not available', isError: true }, refusals: [] };
    const session = await this.deps.gateway.open({ principal, mode: 'approved', clusterName: args.cluster });
    try {
      const result = await tool.run(args, { principal, mode: 'approved', proxySession: session });
      const refusals = session.refusals();
      return { result: withRefusals(result, refusals), refusals };
    } finally {
      await session.close();
    }
  }
}
