import type { RoleName } from '../config/schema.js';
import type { SafetyReport } from '../tools/safety/index.js';

/** What happens to a tool call after analysis. */
export type ToolPlan = { action: 'run' } | { action: 'ask' } | { action: 'refuse'; status: 'forbidden' | 'blocked' | 'error'; reason: string };

export interface PolicyInput {
  role: RoleName;
  /** False when the tool is not in the registry. */
  toolFound: boolean;
  toolName: string;
  report: SafetyReport;
  /** The caller's setting `auto_approve_readonly` (the global config is already in the report). */
  autoApproveReadonly: boolean;
}

/** True when the command must wait for a decision. */
export function needsApproval(report: SafetyReport, autoApproveReadonly: boolean): boolean {
  return report.requiresApproval || (report.isReadOnly && !autoApproveReadonly);
}

/**
 * The role rules of tool calls (docs/user-guide/ai-pilot.md, roles), first match wins: an unknown tool fails;
 * `viewer` may run nothing; blocked patterns and refusals (a kubectl flag or command off the allowlist,
 * a file outside the files root) refuse for everyone with their one-line reason; `user` may not run dangerous
 * commands (delete, drain, rm -rf...) at all, so they are refused without asking; everything
 * else runs at once when it needs no approval, and waits for one otherwise (admin included).
 */
export function planToolCall(input: PolicyInput): ToolPlan {
  if (!input.toolFound) return { action: 'refuse', status: 'error', reason: `Tool not found: ${input.toolName}` };
  if (input.role === 'viewer') {
    return { action: 'refuse', status: 'forbidden', reason: 'Forbidden: role viewer may not run tools; answer from knowledge instead.' };
  }
  if (input.report.blocked) {
    const why =
      input.report.blockedBy === undefined
        ? (input.report.refusal ?? 'the command is refused')
        : `the command matches the blocked pattern ${input.report.blockedBy}`;
    return { action: 'refuse', status: 'blocked', reason: `Blocked: ${why}; it was not run.` };
  }
  if (input.role === 'user' && input.report.isDangerous) {
    return {
      action: 'refuse',
      status: 'forbidden',
      reason: 'Forbidden: role user may not run dangerous commands (delete, drain, forced removal), even with approval; an admin must do it.',
    };
  }
  return needsApproval(input.report, input.autoApproveReadonly) ? { action: 'ask' } : { action: 'run' };
}
