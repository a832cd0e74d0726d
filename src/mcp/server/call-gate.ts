import type { SafetyAnalyzer, SafetyReport } from '../../tools/safety/index.js';
import { manifestPlaceholder, type CallPlan } from './tool-specs.js';

/** Config `mcp_server`: what the server mode may do. */
export interface ServerPolicy {
  /** Write, dangerous, interactive and unknown commands run only when true. */
  allowWrites: boolean;
  /** The bash tool runs only when true. */
  bash: boolean;
}

export type GateDecision = { allowed: true; report: SafetyReport } | { allowed: false; reason: string };

/** The command line the analysis sees and the audit log records. */
export function auditedCommand(plan: CallPlan): string {
  return plan.tool === 'kubectl' ? `kubectl ${plan.command}` : plan.command;
}

function blockedReason(report: SafetyReport): string {
  if (report.blockedBy === undefined) return `refused: ${report.refusal ?? 'the command is refused'}`;
  return `refused: the command matches blocked pattern ${report.blockedBy} (authorization.tool_approval.blocked_patterns)`;
}

/**
 * The same safety analysis as the AI's tools: blocked patterns are refused naming the rule;
 * anything but a read is refused unless writes are allowed; bash only when enabled.
 */
export async function decide(analyzer: SafetyAnalyzer, policy: ServerPolicy, plan: CallPlan): Promise<GateDecision> {
  if (plan.tool === 'bash' && !policy.bash) return { allowed: false, reason: 'refused: the bash tool is disabled on this server (mcp_server.bash: false)' };
  // The manifest file is written by the service, not chosen by the caller: analysed as standard input.
  const report = await analyzer.analyze(plan.tool, plan.command.replace(manifestPlaceholder, '-'));
  if (report.blocked) return { allowed: false, reason: blockedReason(report) };
  if (report.type !== 'read' && !policy.allowWrites) {
    const warnings = report.warnings.length > 0 ? ` (${report.warnings.join('; ')})` : '';
    return { allowed: false, reason: `refused: "${report.type}" command and this server is read-only (mcp_server.allow_writes: false)${warnings}` };
  }
  return { allowed: true, report };
}
